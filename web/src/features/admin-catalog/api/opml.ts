import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type OpmlImport = ApiResponse<'/admin/sources/opml', 'post'>;

/** the download link of GET /admin/sources.opml (through the same-origin forwarder) */
export const OPML_EXPORT_URL = '/api/proxy/admin/sources.opml';
/** the api's and the web role's body limit */
export const OPML_MAX_BYTES = 1024 * 1024;

/**
 * POST /admin/sources/opml with the file's bytes as the body (text/x-opml). The shared client only
 * sends JSON, so this one call is made here, with the same error shape (ApiError).
 */
export async function importOpml(
  file: Blob,
  opts: { dryRun: boolean; defaultTopic: string; allowHosts?: string[] },
): Promise<OpmlImport> {
  const query = new URLSearchParams({ dry_run: String(opts.dryRun), default_topic: opts.defaultTopic });
  // hosts the admin vouches for although the outbound rules refuse their address
  if (opts.allowHosts?.length) query.set('allow_hosts', opts.allowHosts.join(','));
  let res: Response;
  try {
    res = await fetch(`/api/proxy/admin/sources/opml?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'text/x-opml', accept: 'application/json' },
      body: await file.arrayBuffer(),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached.');
  }
  const body = (await res.json().catch(() => null)) as
    | (OpmlImport & { error?: undefined })
    | { error?: { code?: string; message?: string; correlation_id?: string; details?: unknown[] } }
    | null;
  if (!res.ok || !body) {
    const e = body?.error ?? {};
    throw new ApiError(
      res.status,
      e.code ?? 'http_error',
      e.message ?? res.statusText,
      e.correlation_id,
      e.details,
    );
  }
  return body as OpmlImport;
}

/** The preview (dry run) and the import; a finished import refreshes the topic and source lists. */
export function useOpmlImport() {
  const qc = useQueryClient();
  return {
    preview: useMutation({
      mutationFn: ({ file, defaultTopic }: { file: Blob; defaultTopic: string }) =>
        importOpml(file, { dryRun: true, defaultTopic }),
    }),
    apply: useMutation({
      mutationFn: ({
        file,
        defaultTopic,
        allowHosts,
      }: {
        file: Blob;
        defaultTopic: string;
        allowHosts: string[];
      }) => importOpml(file, { dryRun: false, defaultTopic, allowHosts }),
      onSuccess: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: ['admin', 'topics'] }),
          qc.invalidateQueries({ queryKey: ['admin', 'sources'] }),
          qc.invalidateQueries({ queryKey: ['topics'] }),
        ]);
      },
    }),
  };
}
