import { msg } from '@lingui/core/macro';

/** The product's name as the document title and share texts show it. */
export const SITE_TITLE = msg`Cloud-browser rooms`;

export const APP_VERSION = '1.0.0';
