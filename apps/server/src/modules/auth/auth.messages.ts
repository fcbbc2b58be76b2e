import { defineMessages } from '../../lib/i18n.js';

/** Texts of the accounts and sessions module (field errors, details), French first. */
export const authMessage = defineMessages({
  'login.invalid': {
    fr: 'Adresse e-mail ou mot de passe incorrect.',
    en: 'Incorrect email address or password.',
  },
  'login.email_not_verified': {
    fr: 'Votre adresse e-mail n’est pas encore vérifiée. Ouvrez le lien reçu par e-mail, ou demandez-en un nouveau, puis connectez-vous.',
    en: 'Your email address is not verified yet. Open the link we emailed you, or ask for a new one, then sign in.',
  },
  'session.invalid': {
    fr: 'Votre session a expiré ou a été fermée. Veuillez vous reconnecter.',
    en: 'Your session has expired or was closed. Please sign in again.',
  },
  'logout.done': { fr: 'Vous êtes déconnecté.', en: 'You are signed out.' },
  'email.invalid': { fr: 'Saisissez une adresse e-mail valide.', en: 'Enter a valid email address.' },
  'email.taken': {
    fr: 'Un compte existe déjà avec cette adresse e-mail.',
    en: 'An account with this email address already exists.',
  },
  'username.invalid': {
    fr: 'Le nom d’utilisateur doit comporter de 3 à 150 caractères : lettres, chiffres et . @ + - _ uniquement.',
    en: 'The username must be 3 to 150 characters: letters, digits and . @ + - _ only.',
  },
  'username.taken': {
    fr: 'Ce nom d’utilisateur est déjà pris.',
    en: 'This username is already taken.',
  },
  'name.required': { fr: 'Ce champ est obligatoire.', en: 'This field is required.' },
  'name.too_long': {
    fr: 'Ce champ ne peut pas dépasser 100 caractères.',
    en: 'This field cannot be longer than 100 characters.',
  },
  'password.too_short': {
    fr: 'Le mot de passe doit contenir au moins 12 caractères.',
    en: 'The password must be at least 12 characters long.',
  },
  'password.too_long': {
    fr: 'Le mot de passe ne peut pas dépasser 128 caractères.',
    en: 'The password cannot be longer than 128 characters.',
  },
  'password.too_common': {
    fr: 'Ce mot de passe est trop courant. Choisissez-en un autre, par exemple une phrase de plusieurs mots.',
    en: 'This password is too common. Choose another one, for example a phrase of several words.',
  },
  'password.wrong': { fr: 'Mot de passe incorrect.', en: 'Incorrect password.' },
  'password.changed': {
    fr: 'Votre mot de passe a été modifié. Vos autres sessions ont été fermées.',
    en: 'Your password was changed. Your other sessions were closed.',
  },
  'register.created': {
    fr: 'Compte créé. Un lien de vérification a été envoyé à votre adresse e-mail.',
    en: 'Account created. A verification link was sent to your email address.',
  },
  'verify.invalid': {
    fr: 'Ce lien de vérification est invalide ou a expiré.',
    en: 'This verification link is invalid or has expired.',
  },
  'verify.done': {
    fr: 'Votre adresse e-mail est vérifiée. Vous pouvez vous connecter.',
    en: 'Your email address is verified. You can now sign in.',
  },
  'resend.sent': {
    fr: 'Si un compte en attente de vérification existe pour cette adresse, un nouveau lien vient d’être envoyé.',
    en: 'If an account awaiting verification exists for this address, a new link has just been sent.',
  },
  'forgot.sent': {
    fr: 'Si un compte existe pour cette adresse, un lien de réinitialisation vient d’être envoyé. Il est valable 30 minutes.',
    en: 'If an account exists for this address, a reset link has just been sent. It is valid for 30 minutes.',
  },
  'reset.invalid_token': {
    fr: 'Lien de réinitialisation invalide ou expiré.',
    en: 'Invalid or expired reset link.',
  },
  'reset.done': {
    fr: 'Votre mot de passe a été réinitialisé. Vous pouvez vous connecter.',
    en: 'Your password has been reset. You can now sign in.',
  },
  'pin.format': {
    fr: 'Le code PIN doit comporter de 4 à 6 chiffres.',
    en: 'The PIN must be 4 to 6 digits.',
  },
  'pin.too_simple': {
    fr: 'Ce code PIN est trop simple (chiffres identiques ou qui se suivent).',
    en: 'This PIN is too simple (repeated or consecutive digits).',
  },
  'pin.wrong': { fr: 'Code PIN incorrect.', en: 'Incorrect PIN.' },
  'pin.not_set': {
    fr: 'Aucun code PIN n’est défini pour ce compte.',
    en: 'No PIN is set for this account.',
  },
  'pin.locked': {
    fr: 'Trop de tentatives incorrectes : la session a été fermée. Veuillez vous reconnecter.',
    en: 'Too many wrong attempts: the session was closed. Please sign in again.',
  },
});
