export * from './catalog.js';
export * from './users.js';
export * from './articles.js';
export * from './metrics.js';
export * from './tags.js';
export * from './reports.js';
export * from './pipeline.js';
export * from './reader.js';
