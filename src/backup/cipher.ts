/**
 * Encrypted backups (docs/privacy.md "Encryption at rest"): when the database has a key, `pie backup` (and the web
 * UI's download) write the backup encrypted with it. Layout: "PIEBAK1\n", a 16-byte scrypt salt, a 12-byte nonce, a
 * 16-byte key check (HMAC of the derived key, so a wrong key is told before anything is read), the AES-256-GCM
 * ciphertext of the (possibly gzip-compressed) JSON Lines, and the 16-byte authentication tag.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { PieError } from '../domain/errors.js';
import { ENCRYPTED_BACKUP_MAGIC } from './format.js';

const MAGIC = Buffer.from(ENCRYPTED_BACKUP_MAGIC, 'latin1');
const SALT = 16;
const NONCE = 12;
const CHECK = 16;
const TAG = 16;
const HEADER = MAGIC.length + SALT + NONCE + CHECK;

function derive(key: string, salt: Buffer): { aes: Buffer; check: Buffer } {
  const aes = scryptSync(key, salt, 32, { N: 1 << 14, r: 8, p: 1 });
  const check = createHmac('sha256', aes).update('pie backup key check').digest().subarray(0, CHECK);
  return { aes, check };
}

/** A stream that encrypts what passes through it, header first and tag last. */
export function encryptingStream(key: string): Transform {
  const salt = randomBytes(SALT);
  const nonce = randomBytes(NONCE);
  const { aes, check } = derive(key, salt);
  const cipher = createCipheriv('aes-256-gcm', aes, nonce);
  let headerSent = false;
  const header = (push: (b: Buffer) => void) => {
    if (!headerSent) push(Buffer.concat([MAGIC, salt, nonce, check]));
    headerSent = true;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      header((b) => this.push(b));
      done(null, cipher.update(chunk));
    },
    flush(done) {
      header((b) => this.push(b));
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/** True when the file starts like an encrypted PIE backup. */
export function isEncryptedBackup(path: string): boolean {
  if (statSync(path).size < MAGIC.length) return false;
  return readAt(path, 0, MAGIC.length).equals(MAGIC);
}

function readAt(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * The plain bytes of an encrypted backup, as a stream. A missing or wrong key is told before anything is read; a
 * damaged or altered file fails at its end (the tag), so a restore that reads it rolls back.
 */
export function decryptingStream(path: string, key: string | undefined): Readable {
  if (key === undefined) {
    throw new PieError(
      'DB_KEY',
      `The backup ${path} is encrypted; set PIE_DB_KEY or PIE_DB_KEY_FILE to the key of the database it came from.`,
    );
  }
  const size = statSync(path).size;
  if (size < HEADER + TAG)
    throw new PieError('UNREADABLE_INPUT', `The backup ${path} is cut short; it cannot be read.`);
  const header = readAt(path, 0, HEADER);
  const salt = header.subarray(MAGIC.length, MAGIC.length + SALT);
  const nonce = header.subarray(MAGIC.length + SALT, MAGIC.length + SALT + NONCE);
  const { aes, check } = derive(key, salt);
  if (!timingSafeEqual(check, header.subarray(HEADER - CHECK, HEADER))) {
    throw new PieError(
      'DB_KEY',
      `The key in PIE_DB_KEY (or PIE_DB_KEY_FILE) does not open the backup ${path}; use the key it was written with.`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', aes, nonce);
  decipher.setAuthTag(readAt(path, size - TAG, TAG));
  const body = createReadStream(path, { start: HEADER, end: size - TAG - 1 });
  body.on('error', (error) => decipher.destroy(error));
  return body.pipe(decipher);
}
