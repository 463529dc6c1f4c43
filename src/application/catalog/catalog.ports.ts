import type { Provider, Source, Topic } from '../../domain/catalog.js';

export type TopicInput = Omit<Topic, 'id'>;
export type SourceInput = Omit<
  Source,
  'id' | 'etag' | 'lastModified' | 'lastFetchedAt' | 'lastError' | 'fetchIntervalMinutes'
> & { fetchIntervalMinutes?: number };
export type ProviderInput = Omit<Provider, 'id'>;

export interface TopicRepository {
  list(opts?: { activeOnly?: boolean }): Promise<Topic[]>;
  get(id: string): Promise<Topic | null>;
  create(input: TopicInput): Promise<Topic>;
  update(id: string, patch: Partial<TopicInput>): Promise<Topic | null>;
  delete(id: string): Promise<boolean>;
}

export interface SourceRepository {
  list(filter?: { topicId?: string; enabledOnly?: boolean }): Promise<Source[]>;
  get(id: string): Promise<Source | null>;
  create(input: SourceInput): Promise<Source>;
  update(id: string, patch: Partial<Omit<Source, 'id'>>): Promise<Source | null>;
  delete(id: string): Promise<boolean>;
}

export interface ProviderRepository {
  list(): Promise<Provider[]>;
  get(id: string): Promise<Provider | null>;
  /** the most recently updated active provider of a type */
  findActive(type: Provider['type']): Promise<Provider | null>;
  create(input: ProviderInput): Promise<Provider>;
  update(id: string, patch: Partial<ProviderInput>): Promise<Provider | null>;
  delete(id: string): Promise<boolean>;
}
