import { applyDecorators } from '@nestjs/common';
import { IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import { isIP } from 'node:net';

/** The width of the ip column: the longest IPv6 text form. */
const MAX_IP_LENGTH = 45;

/** IPv4 or IPv6 text that fits the column (a long IPv6 zone id would not). */
export function isAssetIp(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_IP_LENGTH && isIP(value) !== 0;
}

/** An asset's `ip`: IPv4 or IPv6; null clears it. */
export const IsOptionalIp = () =>
  applyDecorators(
    IsOptional(),
    ValidateBy({
      name: 'isAssetIp',
      validator: { validate: isAssetIp, defaultMessage: () => '$property must be an IP address' },
    }),
  );

/** An asset's `risk_score`: an integer from 0 to 100; null clears it. */
export const IsOptionalRiskScore = () => applyDecorators(IsOptional(), IsInt(), Min(0), Max(100));
