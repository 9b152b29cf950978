// Ready-made analytics queries for the common questions; each opens as a new file the user can change.
import type { AnalyticsQuery } from '../../core/analytics';

export interface ReadyQuery {
  id: string;
  label: string;
  detail: string;
  /** File name without the `.dam-analytics.json` suffix. */
  fileName: string;
  query: AnalyticsQuery;
}

export const readyQueries: readonly ReadyQuery[] = [
  {
    id: 'mostViewedThisQuarter',
    label: 'Most viewed records this quarter',
    detail: 'Views per record since the start of the quarter, most viewed first, with titles.',
    fileName: 'most-viewed-this-quarter',
    query: {
      measures: ['Views.count'],
      dimensions: ['Views.recordId', 'RecordMetadata.title'],
      timeDimensions: [{ dimension: 'Views.viewDate', dateRange: 'this quarter' }],
      order: { 'Views.count': 'desc', 'Views.recordId': 'asc' },
      limit: 100,
    },
  },
  {
    id: 'downloadsByMonth',
    label: 'Downloads by month',
    // 'last 12 months' runs from this day a year ago to today (as in Cube): its first and last months are partial.
    detail: 'Downloads per calendar month, from this day a year ago to today: the first month is partial (counted from this day of that month), and so is this month.',
    fileName: 'downloads-by-month',
    query: {
      measures: ['Downloads.count'],
      timeDimensions: [{ dimension: 'Downloads.downloadDate', granularity: 'month', dateRange: 'last 12 months' }],
      order: { 'Downloads.downloadDate.month': 'asc' },
    },
  },
  {
    id: 'neverDownloaded',
    label: 'Records never downloaded',
    detail: 'Every record without a single download, newest first.',
    fileName: 'records-never-downloaded',
    query: {
      measures: ['ZeroDownloadRecords.count'],
      dimensions: ['ZeroDownloadRecords.recordId', 'ZeroDownloadRecords.createDate', 'RecordMetadata.title'],
      order: { 'ZeroDownloadRecords.createDate': 'desc', 'ZeroDownloadRecords.recordId': 'asc' },
    },
  },
  {
    id: 'viewsByCollection',
    label: 'Views by collection',
    detail: 'Views that happened inside a collection, per collection, most viewed first.',
    fileName: 'views-by-collection',
    query: {
      measures: ['Views.count'],
      dimensions: ['Collections.name'],
      filters: [{ member: 'Views.hasCollectionContext', operator: 'equals', values: ['true'] }],
      order: { 'Views.count': 'desc', 'Collections.name': 'asc' },
    },
  },
];
