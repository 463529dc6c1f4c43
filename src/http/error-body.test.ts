import { describe, expect, it } from 'vitest';
import { codeForStatus } from './error-body.js';

describe('codeForStatus', () => {
  it('names the 4xx statuses either role answers without a typed error, 429 included', () => {
    expect(codeForStatus(400)).toBe('bad_request');
    expect(codeForStatus(404)).toBe('not_found');
    expect(codeForStatus(413)).toBe('payload_too_large');
    expect(codeForStatus(415)).toBe('unsupported_media_type');
    expect(codeForStatus(429)).toBe('rate_limited');
    expect(codeForStatus(418)).toBe('bad_request');
    expect(codeForStatus(500)).toBe('internal_error');
    expect(codeForStatus(503)).toBe('service_unavailable');
  });
});
