/**
 * The self-hosted captcha's difficulty for every server a test starts: a solve of ~500 hashes instead of ~25,000.
 * Verification is the product's own; only the work a test does per solve shrinks (the lockout suite alone solves
 * over a hundred).
 */
export const TEST_CAPTCHA_MAX_NUMBER = '1000';
