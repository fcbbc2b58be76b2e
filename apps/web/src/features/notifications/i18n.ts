/** The `notifications` namespace: loaded with the first screens' strings (CORE_NAMESPACES in lib/i18n-namespaces). */
export const NOTIFICATIONS_NS = 'notifications';
