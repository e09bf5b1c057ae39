// Certificate files renewed in place (certbot, a Kubernetes secret, an operator's copy) reach the running server:
// the files are polled, since a watch on the file itself misses the rename or symlink swap most tools renew with.
import { unwatchFile, watchFile } from 'node:fs';
import { readCertificateFiles, type TCertificatePair } from './certificate-pair';

export interface TCertificateFileWatch {
  stop(): void;
}

export function watchCertificateFiles(options: {
  certFile: string;
  keyFile: string;
  /** The fingerprint of the pair being served, so that touching the files without a change does nothing. */
  current: string;
  onPair(pair: TCertificatePair): void;
  /** A pair that cannot be used: the one being served stays. */
  onError(error: Error): void;
  pollMs?: number;
}): TCertificateFileWatch {
  const pollMs = options.pollMs ?? 5000;
  let current = options.current;
  let timer: NodeJS.Timeout | undefined;
  // A renewal writes the certificate and the key one after the other: reading between the two writes would find
  // a key of another certificate, so the read waits for the files to stay still a moment.
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, Math.min(1000, pollMs));
  };
  const reload = () => {
    readCertificateFiles(options.certFile, options.keyFile).then(
      (pair) => {
        if (pair.fingerprint === current) return;
        current = pair.fingerprint;
        options.onPair(pair);
      },
      (error: Error) => options.onError(error),
    );
  };
  const files = [options.certFile, options.keyFile];
  for (const file of files) watchFile(file, { interval: pollMs, persistent: false }, settle);
  return {
    stop() {
      clearTimeout(timer);
      for (const file of files) unwatchFile(file, settle);
    },
  };
}
