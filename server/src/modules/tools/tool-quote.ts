import { tenthsToTokens, type JobName, type ToolQuote } from '@imagestudio/contracts';
import { toolDefinition, type QuoteQuery, type ToolSettings } from '../tool-definitions';

/**
 * The quote GET /api/tools/quote returns: the tool's unit price for the query's options, times the number of
 * images (1 for the tools that take one image).
 */
export function quote(settings: ToolSettings, tool: JobName, query: QuoteQuery): ToolQuote {
  const { unitTenths, ...facts } = toolDefinition(tool).quote(settings, query);
  return {
    tool,
    ...facts,
    unit_price: tenthsToTokens(unitTenths),
    cost: tenthsToTokens(unitTenths * facts.count),
  };
}
