/** Search-engine and link-preview crawlers: the fatal error page is not rendered for them. */
const BOT_PATTERN =
  /bot\b|bot\/|crawler|spider|crawling|slurp|googlebot|bingbot|duckduckbot|baiduspider|yandex|sogou|exabot|facebookexternalhit|facebot|ia_archiver|embedly|quora link preview|pinterest|slackbot|twitterbot|linkedinbot|applebot|petalbot|semrush|ahrefs/i;

export function isSearchEngineBot(userAgent: string | undefined | null): boolean {
  return typeof userAgent === 'string' && BOT_PATTERN.test(userAgent);
}
