// Scripts may pass a session token, room ticket or room password in a URL; logs keep the URL without them.
export function redactQuerySecrets(url: string): string {
  return url.replace(/([?&](?:token|ticket|password)=)[^&#]*/gi, '$1[redacted]');
}
