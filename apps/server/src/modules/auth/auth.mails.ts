import type { Lang } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';

interface Recipient {
  email: string;
  firstName: string;
  languagePreference: string;
}

export const mailLang = (r: Pick<Recipient, 'languagePreference'>): Lang =>
  r.languagePreference === 'en' ? 'en' : 'fr';

/** A web route in the recipient's language: French unprefixed, English under /en (spec §2). */
function webLink(publicUrl: string, lang: Lang, path: string): string {
  return `${publicUrl}${lang === 'en' ? '/en' : ''}${path}`;
}

export function verificationMail(publicUrl: string, to: Recipient, uid: string, token: string): MailMessage {
  const lang = mailLang(to);
  const link = webLink(publicUrl, lang, `/verify-email/${uid}/${token}`);
  const name = to.firstName.trim();
  const text =
    lang === 'fr'
      ? [
          `Bonjour${name ? ` ${name}` : ''},`,
          '',
          'Pour vérifier votre adresse e-mail et activer votre compte Greensen, ouvrez ce lien (valable 48 heures) :',
          '',
          link,
          '',
          'Un administrateur de votre établissement vous attribuera ensuite un hôpital et un rôle.',
          'Si vous n’avez pas créé de compte Greensen, ignorez ce message.',
          '',
          '— Greensen',
        ]
      : [
          `Hello${name ? ` ${name}` : ''},`,
          '',
          'To verify your email address and activate your Greensen account, open this link (valid for 48 hours):',
          '',
          link,
          '',
          'An administrator of your facility will then give you a hospital and a role.',
          'If you did not create a Greensen account, ignore this message.',
          '',
          '— Greensen',
        ];
  return {
    to: to.email,
    subject:
      lang === 'fr' ? 'Vérifiez votre adresse e-mail — Greensen' : 'Verify your email address — Greensen',
    text: text.join('\n'),
    link,
  };
}

export function resetMail(publicUrl: string, to: Recipient, uid: string, token: string): MailMessage {
  const lang = mailLang(to);
  // The user id and the token travel as one segment: /reset-password/{uid}.{token}.
  const link = webLink(publicUrl, lang, `/reset-password/${uid}.${token}`);
  const name = to.firstName.trim();
  const text =
    lang === 'fr'
      ? [
          `Bonjour${name ? ` ${name}` : ''},`,
          '',
          'Une réinitialisation du mot de passe de votre compte Greensen a été demandée.',
          'Pour choisir un nouveau mot de passe, ouvrez ce lien (valable 30 minutes, utilisable une seule fois) :',
          '',
          link,
          '',
          'Toutes vos sessions ouvertes seront fermées.',
          'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
          '',
          '— Greensen',
        ]
      : [
          `Hello${name ? ` ${name}` : ''},`,
          '',
          'A password reset was requested for your Greensen account.',
          'To choose a new password, open this link (valid for 30 minutes, single use):',
          '',
          link,
          '',
          'All your open sessions will be closed.',
          'If you did not ask for this, ignore this message: your password stays the same.',
          '',
          '— Greensen',
        ];
  return {
    to: to.email,
    subject:
      lang === 'fr' ? 'Réinitialisation de votre mot de passe — Greensen' : 'Reset your password — Greensen',
    text: text.join('\n'),
    link,
  };
}
