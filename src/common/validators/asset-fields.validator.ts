import { applyDecorators } from '@nestjs/common';
import { IsInt, IsIP, IsOptional, Max, Min } from 'class-validator';

/** An asset's `ip`: IPv4 or IPv6; null clears it. */
export const IsOptionalIp = () =>
  applyDecorators(IsOptional(), IsIP(undefined, { message: '$property must be an IP address' }));

/** An asset's `risk_score`: an integer from 0 to 100; null clears it. */
export const IsOptionalRiskScore = () => applyDecorators(IsOptional(), IsInt(), Min(0), Max(100));
