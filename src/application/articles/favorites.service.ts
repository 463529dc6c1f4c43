import { notFound } from '../../domain/errors.js';
import type { FavoriteRepository } from './articles.ports.js';

/** /user/favorites: a user only ever reads and changes their own pairs. */
export class FavoritesService {
  constructor(private readonly favorites: FavoriteRepository) {}

  async list(userId: string): Promise<{ article_ids: string[] }> {
    return { article_ids: await this.favorites.list(userId) };
  }

  /** true when created, false when it already existed (201 / 204) */
  async add(userId: string, articleId: string): Promise<boolean> {
    const outcome = await this.favorites.add(userId, articleId);
    if (outcome === 'no_article') throw notFound('article');
    return outcome === 'created';
  }

  async remove(userId: string, articleId: string): Promise<void> {
    await this.favorites.remove(userId, articleId);
  }
}
