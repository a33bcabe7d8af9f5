import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyEnvironment, KeyType } from '../../common/auth/principal';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_RANDOM_LENGTH = 40;
const KEY_PATTERN = /^(ep_live_|ep_test_|epa_)[A-Za-z0-9]{32,}$/;

/** `n` base62 characters from the CSPRNG, by rejection sampling so every character is equally likely. */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += BASE62[byte % 62]; // 248 = 4 × 62: no modulo bias
    }
  }
  return out;
}

export function keyPrefix(type: KeyType, environment: KeyEnvironment | null): string {
  return type === 'admin' ? 'epa_' : `ep_${environment ?? 'live'}_`;
}

export function generateKey(type: KeyType, environment: KeyEnvironment | null): string {
  return keyPrefix(type, environment) + randomBase62(KEY_RANDOM_LENGTH);
}

export function isWellFormedKey(raw: string): boolean {
  return KEY_PATTERN.test(raw);
}

/** Keys are stored as SHA-256 hex only; the value is shown once and never kept. */
export function hashKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function last4(raw: string): string {
  return raw.slice(-4);
}
