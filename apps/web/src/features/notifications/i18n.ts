/**
 * Registers the `notifications` namespace (French and English) with the app's i18next instance.
 * Imported by the feature's entry points, so the namespace exists wherever they are rendered.
 */
import { i18n } from '../../lib/i18n';
import en from '../../locales/en/notifications.json';
import fr from '../../locales/fr/notifications.json';

export const NOTIFICATIONS_NS = 'notifications';

for (const [lang, bundle] of [
  ['fr', fr],
  ['en', en],
] as const) {
  if (!i18n.hasResourceBundle(lang, NOTIFICATIONS_NS)) {
    i18n.addResourceBundle(lang, NOTIFICATIONS_NS, bundle, true, false);
  }
}
