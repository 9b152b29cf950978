// The analytics API's own 400s, beside the core error factory: one named constructor per failure.
import { ApiError } from '../errors';

const ns = 'Dam.Analytics';

export const analyticsErrors = {
  missingQuery: () => new ApiError(400, `${ns}.InvalidQueryException`, "The 'query' parameter is required: a one-line JSON analytics query object."),
  queryNotJson: (detail: string) => new ApiError(400, `${ns}.InvalidQueryException`, `The 'query' parameter is not valid JSON: ${detail}`),
  invalidQuery: (messages: string[]) => new ApiError(400, `${ns}.InvalidQueryException`, messages.join(' ')),
};
