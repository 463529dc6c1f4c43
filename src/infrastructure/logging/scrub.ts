/**
 * Credentials a log line must never hold, whatever wrote it: an upstream that echoes its request
 * headers, a driver error that quotes its bind parameters, a message built from a URL with a
 * password. Each match keeps its label and loses its value.
 */
const PATTERNS: [RegExp, string][] = [
  // HTTP auth schemes (Basic, Bearer, Token) followed by a credential
  [/\b(Basic|Bearer|Token)(\s+|%20)[A-Za-z0-9._~+/=-]{4,}/gi, '$1$2[redacted]'],
  // personal access tokens anywhere: the public key stays (it names the token), the secret goes
  [/\b(ais_pat_[0-9A-Za-z]{10}_)[0-9A-Za-z]+/g, '$1[redacted]'],
  // JSON Web Tokens anywhere
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  // password hashes of ours (scrypt$N$r$p$salt$hash) and of other common schemes
  [/\b(scrypt|argon2(?:id|i|d)?|pbkdf2[-_a-z0-9]*)\$[^\s"',;]+/gi, '$1$[redacted]'],
  [/\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{20,}/g, '[redacted-hash]'],
  // "name: value" / "name=value" / "name":"value" for names that hold secrets
  [
    /((?:authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?access[_-]?key|password|passwd|secret|token)\\?["']?\s*[:=]\s*(?:\\?["'])?)(?!\[redacted|(?:true|false|null|\d+)\b)[^\s"'&,;\\}]+/gi,
    '$1[redacted]',
  ],
  // user:password@ in URLs
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@"]+:)[^@\s/"]+@/gi, '$1[redacted]@'],
  // node-postgres / drizzle errors: "params: <every bind parameter>" up to the end of the string
  [/(params: )(?:[^"\\]|\\.)*/g, '$1[redacted]'],
];

/** `text` with every credential pattern and every known secret value replaced. */
export function scrubSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known)
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

/** Cheap test first: most lines hold none of the trigger words and skip the replacements. */
const TRIGGER =
  /basic|bearer|token|ais_pat_|eyJ|\$|authoriz|cookie|key|password|passwd|secret|params: |:\/\/[^/\s]*@/i;

export function scrubLine(line: string, known: readonly string[]): string {
  let hit = TRIGGER.test(line);
  if (!hit) for (const s of known) if (s.length >= 6 && line.includes(s)) hit = true;
  return hit ? scrubSecrets(line, known) : line;
}
