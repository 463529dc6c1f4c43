export interface Topic {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isActive: boolean;
}

export type SourceKind = 'rss' | 'arxiv';

export interface Source {
  id: string;
  topicId: string;
  name: string;
  kind: SourceKind;
  url: string;
  enabled: boolean;
  etag: string | null;
  lastModified: string | null;
  lastFetchedAt: Date | null;
  lastError: string | null;
}

export type ProviderType = 'text' | 'multimodal';

export interface Provider {
  id: string;
  name: string;
  type: ProviderType;
  baseUrl: string;
  model: string;
  imageModel: string | null;
  apiKey: string | null;
  isActive: boolean;
}
