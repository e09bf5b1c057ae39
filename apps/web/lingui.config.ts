// The configuration lives in packages/i18n; the Lingui CLI and the Babel macro look for it here.
export { default } from '@rooms/i18n/lingui.config';
