import { ValidationError } from '../../errors/errors';
import { Resolution } from './skill-resolver';

/**
 * The VALIDATION_ERROR of a name several skills answer to at the same level (decisions.md): `details` name
 * each candidate under `field`, with its id and name.
 */
export function ambiguousNameError(field: string, resolution: Resolution): ValidationError {
  return new ValidationError(
    `${field} "${resolution.name}" is ambiguous: ${resolution.candidates.length} skills answer to it`,
    resolution.candidates.map(({ id, name, matchedOn }) => ({
      field,
      message: `"${resolution.name}" is the ${matchedOn === 'hiddenAlias' ? 'hidden alias' : matchedOn} of skill ${id} ("${name}")`,
    })),
  );
}
