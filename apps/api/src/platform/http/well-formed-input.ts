import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { findIllFormedText } from '@rank/domain/well-formed-text';

/**
 * The well-formed-text check (libs/domain/src/well-formed-text.ts) on every body, query and route
 * parameter a route takes: a line break is allowed only in fields marked `@MultilineText()` (note
 * text, and a project's `aliases`, which the spec takes newline-separated).
 */

const MULTILINE_FIELDS = Symbol('multilineFields');

/** Marks a DTO property whose text may span several lines. */
export const MultilineText = (): PropertyDecorator => (target, key) => {
  const type = target.constructor as { [MULTILINE_FIELDS]?: Set<string> };
  const own = Object.prototype.hasOwnProperty.call(type, MULTILINE_FIELDS) ? type[MULTILINE_FIELDS]! : new Set(type[MULTILINE_FIELDS]);
  own.add(String(key));
  type[MULTILINE_FIELDS] = own;
};

const multilineFieldsOf = (type: unknown): ReadonlySet<string> =>
  (typeof type === 'function' ? (type as { [MULTILINE_FIELDS]?: Set<string> })[MULTILINE_FIELDS] : undefined) ?? new Set();

/** The global pipe that applies the check to every body, query and route parameter, before validation. */
@Injectable()
export class WellFormedInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    const problem = findIllFormedText(value, metadata.data ?? '', multilineFieldsOf(metadata.metatype));
    if (problem) throw new BadRequestException({ message: problem });
    return value;
  }
}
