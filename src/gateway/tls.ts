/**
 * TLS on the main listener (`listen.tls`): reads the PEM files named in the config into the
 * options of `node:https`, and checks they form a usable secure context, so a missing or broken
 * file is a config problem naming the key and the file, at startup as on a reload.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, type SecureContextOptions, type TLSSocket } from 'node:tls';
import type { Server } from 'node:http';
import type { GatewayConfig } from '../config/schema.js';

/** The `listen.tls` files with their paths resolved against the config file's folder. */
export interface TlsFiles {
  readonly cert: string;
  readonly key: string;
  readonly clientCa: string | null;
  readonly clientAuth: 'none' | 'request' | 'require';
}

/** The options a TLS listener is created (and its secure context replaced) with. */
export interface TlsServerOptions extends SecureContextOptions {
  readonly requestCert: boolean;
  readonly rejectUnauthorized: boolean;
}

/** Why the TLS files could not be used: the key and the resolved file named. */
export interface TlsProblem {
  readonly key: string;
  readonly file: string;
  readonly message: string;
}

/** The files of `listen.tls`, resolved against `dir`; null when TLS is off. */
export function tlsFilesOf(config: GatewayConfig, dir: string): TlsFiles | null {
  const { cert, key, client_ca, client_auth } = config.listen.tls;
  // The schema holds cert and key set together.
  if (cert === null || key === null) return null;
  return {
    cert: resolve(dir, cert),
    key: resolve(dir, key),
    clientCa: client_ca === null ? null : resolve(dir, client_ca),
    clientAuth: client_auth,
  };
}

function readPem(key: string, file: string): Buffer | TlsProblem {
  try {
    return readFileSync(file);
  } catch (err) {
    return { key, file, message: `cannot read ${file} (${(err as NodeJS.ErrnoException).code})` };
  }
}

/**
 * Reads the files and builds the listener's options. `client_auth: require` refuses a client
 * without a certificate the CAs of `client_ca` signed at the handshake; `request` asks for one
 * and accepts the connection without it (or with one that does not verify): only a certificate
 * the socket reports as authorized is ever believed ({@link verifiedClientCert}).
 */
export function readTlsOptions(files: TlsFiles): TlsServerOptions | TlsProblem {
  const cert = readPem('listen.tls.cert', files.cert);
  if (!Buffer.isBuffer(cert)) return cert;
  const key = readPem('listen.tls.key', files.key);
  if (!Buffer.isBuffer(key)) return key;
  const ca = files.clientCa === null ? undefined : readPem('listen.tls.client_ca', files.clientCa);
  if (ca !== undefined && !Buffer.isBuffer(ca)) return ca;
  const options: TlsServerOptions = {
    cert,
    key,
    ...(ca === undefined ? {} : { ca }),
    minVersion: 'TLSv1.2',
    requestCert: files.clientAuth !== 'none',
    rejectUnauthorized: files.clientAuth === 'require',
  };
  // Each part on its own first, so the problem names the file at fault.
  const parts: readonly [string, string, SecureContextOptions][] = [
    ['listen.tls.cert', files.cert, { cert }],
    ['listen.tls.key', files.key, { key }],
    ['listen.tls.key', files.key, { cert, key }],
  ];
  for (const [name, file, part] of parts) {
    try {
      createSecureContext(part);
    } catch (err) {
      return { key: name, file, message: `${file}: ${(err as Error).message}` };
    }
  }
  // A CA bundle with no certificate in it is no error to OpenSSL, but would verify nobody.
  if (ca !== undefined) {
    try {
      new X509Certificate(ca);
    } catch (err) {
      const file = files.clientCa as string;
      return { key: 'listen.tls.client_ca', file, message: `${file}: ${(err as Error).message}` };
    }
  }
  return options;
}

/** Whether {@link readTlsOptions} answered a problem. */
export function isTlsProblem(value: TlsServerOptions | TlsProblem): value is TlsProblem {
  return 'message' in value;
}

/** The client certificate a TLS socket verified against `client_ca`, or null. */
export interface ClientCert {
  readonly subject: string;
  readonly fingerprint256: string;
}

// One entry per TLS connection, for as long as it lives: a keep-alive connection's requests share
// the certificate its handshake verified, so it is parsed once.
const certOfSocket = new WeakMap<object, ClientCert>();

/**
 * The verified client certificate of a request's socket: only when the handshake verified it
 * against `listen.tls.client_ca` (`authorized`); a plain socket or an unverified one gives null.
 * The same object for every request of one connection.
 */
export function verifiedClientCert(socket: unknown): ClientCert | null {
  // Only a TLSSocket has `authorized`, and only after the handshake verified the peer.
  const tlsSocket = socket as TLSSocket;
  if (tlsSocket.authorized !== true) return null;
  let cert = certOfSocket.get(tlsSocket);
  if (cert === undefined) {
    const peer = new X509Certificate(tlsSocket.getPeerCertificate().raw);
    cert = { subject: peer.subject.split('\n').join(','), fingerprint256: peer.fingerprint256 };
    certOfSocket.set(tlsSocket, cert);
  }
  return cert;
}

/**
 * Reads the `listen.tls` files again and gives the listener the new secure context (new
 * connections only). A file that does not read or parse keeps the running context: the
 * problem, naming the key and the file, is written to `log` instead. Answers whether it replaced.
 */
export function reloadSecureContext(
  server: Server,
  files: TlsFiles,
  log: { err(line: string): void },
): boolean {
  const read = readTlsOptions(files);
  if (isTlsProblem(read)) {
    log.err(`error: ${read.key}: ${read.message}; the running certificate is kept`);
    return false;
  }
  (server as unknown as { setSecureContext(options: SecureContextOptions): void }).setSecureContext(
    read,
  );
  return true;
}
