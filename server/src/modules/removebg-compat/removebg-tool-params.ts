import { ZodError } from 'zod';
import { toolDefinition, type ToolSettings } from '../tool-definitions';
import { badField } from './removebg-errors';
import { TOOL_FIELD_CODES, toolFields, type ToolFieldsInput } from './removebg-tool-fields';

/**
 * The job's params: the adapter's fields parsed by the remove-background tool's own definition, exactly as a
 * call of `POST /api/tools/remove-background` with those fields would be. A refusal of the tool's (a margin
 * that leaves no room, say) is answered with the remove.bg code of the field it came from.
 */
export function toolParams(settings: ToolSettings, input: ToolFieldsInput): Record<string, unknown> {
  const fields = toolFields(input);
  try {
    return toolDefinition('remove-background').parse(fields, settings);
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    const issue = err.issues[0];
    const field = String(issue?.path[0] ?? '');
    throw badField(TOOL_FIELD_CODES[field] ?? 'invalid_request', 'Invalid request', issue?.message);
  }
}
