import { MetricCatalogService } from '../application/metrics/metric-catalog.service.js';
import { UserPreferencesService } from '../application/users/user-preferences.service.js';
import { DrizzleMetricDefinitionRepository } from '../infrastructure/db/repositories/metric-definition.repository.js';
import { DrizzleUserPreferencesRepository } from '../infrastructure/db/repositories/user-preferences.repository.js';
import type { WireArea } from './context.js';

/** The metric catalog and the users' subscriptions and notification settings. */
export const wirePreferences: WireArea = (ctx) => ({
  services: {
    metricCatalog: new MetricCatalogService(new DrizzleMetricDefinitionRepository(ctx.db)),
    preferences: new UserPreferencesService(new DrizzleUserPreferencesRepository(ctx.db)),
  },
});
