import type { Lang } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';

interface Recipient {
  email: string;
  firstName: string;
  languagePreference: string;
}

export const mailLang = (r: Pick<Recipient, 'languagePreference'>): Lang =>
  r.languagePreference === 'en' ? 'en' : 'fr';

/** The body of a mail in the recipient's language: greeting, that language's lines, signature. */
function letter(to: Recipient, lines: Record<Lang, string[]>): string {
  const lang = mailLang(to);
  const name = to.firstName.trim();
  const hello = lang === 'fr' ? 'Bonjour' : 'Hello';
  return [`${hello}${name ? ` ${name}` : ''},`, '', ...lines[lang], '', '— Greensen'].join('\n');
}

/** A web route in the recipient's language: French unprefixed, English under /en (spec §2). */
function webLink(publicUrl: string, lang: Lang, path: string): string {
  return `${publicUrl}${lang === 'en' ? '/en' : ''}${path}`;
}

export function verificationMail(publicUrl: string, to: Recipient, uid: string, token: string): MailMessage {
  const lang = mailLang(to);
  const link = webLink(publicUrl, lang, `/verify-email/${uid}/${token}`);
  const text = letter(to, {
    fr: [
      'Pour vérifier votre adresse e-mail et activer votre compte Greensen, ouvrez ce lien (valable 48 heures) :',
      '',
      link,
      '',
      'Un administrateur de votre établissement vous attribuera ensuite un hôpital et un rôle.',
      'Si vous n’avez pas créé de compte Greensen, ignorez ce message.',
    ],
    en: [
      'To verify your email address and activate your Greensen account, open this link (valid for 48 hours):',
      '',
      link,
      '',
      'An administrator of your facility will then give you a hospital and a role.',
      'If you did not create a Greensen account, ignore this message.',
    ],
  });
  return {
    to: to.email,
    subject:
      lang === 'fr' ? 'Vérifiez votre adresse e-mail — Greensen' : 'Verify your email address — Greensen',
    text,
    link,
  };
}

export function resetMail(publicUrl: string, to: Recipient, uid: string, token: string): MailMessage {
  const lang = mailLang(to);
  // The user id and the token travel as one segment: /reset-password/{uid}.{token}.
  const link = webLink(publicUrl, lang, `/reset-password/${uid}.${token}`);
  const text = letter(to, {
    fr: [
      'Une réinitialisation du mot de passe de votre compte Greensen a été demandée.',
      'Pour choisir un nouveau mot de passe, ouvrez ce lien (valable 30 minutes, utilisable une seule fois) :',
      '',
      link,
      '',
      'Toutes vos sessions ouvertes seront fermées.',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
    ],
    en: [
      'A password reset was requested for your Greensen account.',
      'To choose a new password, open this link (valid for 30 minutes, single use):',
      '',
      link,
      '',
      'All your open sessions will be closed.',
      'If you did not ask for this, ignore this message: your password stays the same.',
    ],
  });
  return {
    to: to.email,
    subject:
      lang === 'fr' ? 'Réinitialisation de votre mot de passe — Greensen' : 'Reset your password — Greensen',
    text,
    link,
  };
}

/**
 * A hospital's invitation (issue 36, decision 0060): the link accepts the membership — an account without a
 * password chooses it there. The same mail whether the address already had an account or not.
 */
export function membershipInvitationMail(
  publicUrl: string,
  to: Recipient,
  token: string,
  hospital: string,
  days: number,
): MailMessage {
  const lang = mailLang(to);
  const link = webLink(publicUrl, lang, `/invitation/${token}`);
  const text = letter(to, {
    fr: [
      `Vous êtes invité(e) à rejoindre ${hospital} sur Greensen.`,
      `Pour accepter l’invitation, ouvrez ce lien (valable ${days} jours, utilisable une seule fois) :`,
      '',
      link,
      '',
      'Si vous n’avez pas encore de mot de passe Greensen, vous le choisirez sur cette page.',
      'Si vous ne vous attendiez pas à cette invitation, ignorez ce message : rien ne change sans votre accord.',
    ],
    en: [
      `You are invited to join ${hospital} on Greensen.`,
      `To accept the invitation, open this link (valid for ${days} days, single use):`,
      '',
      link,
      '',
      'If you have no Greensen password yet, you will choose it on that page.',
      'If you did not expect this invitation, ignore this message: nothing changes without your consent.',
    ],
  });
  return {
    to: to.email,
    subject:
      lang === 'fr'
        ? `Invitation à rejoindre ${hospital} — Greensen`
        : `Invitation to join ${hospital} — Greensen`,
    text,
    link,
  };
}
