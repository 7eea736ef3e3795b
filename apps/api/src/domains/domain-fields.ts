import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { normaliseDomain } from '@rank/domain/domain-name';
import { LIMITS } from '@rank/domain/limits';
import { isPublicHostname } from '@rank/domains/domain/public-hostname';
import { RequiredQuery } from '../tracking/reads/query-fields';

/** A domain of a public site: the data is fetched, by our own Lighthouse too, so never an IP or an intranet name. */
const isDomainName = (value: unknown) => {
  const domain = typeof value === 'string' ? normaliseDomain(value) : null;
  return domain !== null && isPublicHostname(domain);
};

/** A required domain (query or body), normalised by the handler: `https://www.Example.com/x` is `example.com`. */
export const RequiredDomainField = (description: string) =>
  applyDecorators(
    ApiProperty({ example: 'example.com', maxLength: 253, description }),
    RequiredQuery(isDomainName, 'a public domain name such as example.com'),
  );

/** A comma list or a repeated parameter, as one list of trimmed, non-empty entries. */
export function listOfEntries(value: unknown): string[] | undefined {
  const parts = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  if (parts.length === 0) return undefined;
  return parts
    .flatMap((part) => part.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * competitors-filtered's `competitors`: a comma list or a repeated parameter of at most 50 domains
 * (the spec's 400 above that); each must be a domain name.
 */
export const CompetitorsQuery = () =>
  applyDecorators(
    ApiProperty({
      type: 'array',
      items: { type: 'string', maxLength: 253 },
      minItems: 1,
      maxItems: LIMITS.competitorsPerRequest,
      // A list, as the schema says (sent as repeated parameters); one comma-separated value is accepted too.
      example: ['rival.com', 'other.org'],
      description: `Comma-separated or repeated; at most ${LIMITS.competitorsPerRequest}`,
    }),
    Transform(({ value }) => listOfEntries(value)),
    ValidateBy({
      name: 'competitorList',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.length > 0 && value.length <= LIMITS.competitorsPerRequest && value.every(isDomainName),
        defaultMessage: (args) => {
          const value = args?.value as string[] | undefined;
          if (!Array.isArray(value) || value.length === 0)
            return 'competitors is required: a comma-separated list or repeated competitors parameters';
          if (value.length > LIMITS.competitorsPerRequest)
            return `competitors holds ${value.length} domains; at most ${LIMITS.competitorsPerRequest} are accepted`;
          return `competitors must hold public domain names such as example.com (got "${value.find((v) => !isDomainName(v))}")`;
        },
      },
    }),
  );
