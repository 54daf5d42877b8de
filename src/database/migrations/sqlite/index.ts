import type { MigrationInterface } from 'typeorm';
import { Init1795303035370 } from './1795303035370-Init.js';
import { Inventory1795303929837 } from './1795303929837-Inventory.js';
import { Provenance1795496326167 } from './1795496326167-Provenance.js';
import { Runs1795496969351 } from './1795496969351-Runs.js';
import { Services1795512515374 } from './1795512515374-Services.js';
import { Changes1795527844427 } from './1795527844427-Changes.js';
import { AssetSearch1795527936776 } from './1795527936776-AssetSearch.js';
import { AssetCount1795527936777 } from './1795527936777-AssetCount.js';
import { ChangeSets1795601120887 } from './1795601120887-ChangeSets.js';
import { ChangeIdOrder1795604843150 } from './1795604843150-ChangeIdOrder.js';
import { Findings1795876500649 } from './1795876500649-Findings.js';
import { FindingPeriodSeverity1795889233428 } from './1795889233428-FindingPeriodSeverity.js';
import { FindingCounts1795889233429 } from './1795889233429-FindingCounts.js';
import { Events1795915440486 } from './1795915440486-Events.js';
import { ServiceAccountsScopedKeys1795916948858 } from './1795916948858-ServiceAccountsScopedKeys.js';
import { OidcSubject1795917012893 } from './1795917012893-OidcSubject.js';
import { AssetIdentity1795924778051 } from './1795924778051-AssetIdentity.js';
import { AssetIdentitySearch1795924778052 } from './1795924778052-AssetIdentitySearch.js';
import { WebhookDeliveryClaims1795926679875 } from './1795926679875-WebhookDeliveryClaims.js';
import { AssetTags1795937393571 } from './1795937393571-AssetTags.js';
import { AssetAliases1795940314850 } from './1795940314850-AssetAliases.js';
import { WebhookHolds1795940460305 } from './1795940460305-WebhookHolds.js';
import { FindingsFixedOrder1795960190892 } from './1795960190892-FindingsFixedOrder.js';
import { AssetsRiskOrder1795982513778 } from './1795982513778-AssetsRiskOrder.js';

/** Applied in this order; add each newly generated migration here. */
export const SQLITE_MIGRATIONS: (new () => MigrationInterface)[] = [
  Init1795303035370,
  Inventory1795303929837,
  Provenance1795496326167,
  Runs1795496969351,
  Services1795512515374,
  Changes1795527844427,
  AssetSearch1795527936776,
  AssetCount1795527936777,
  ChangeSets1795601120887,
  ChangeIdOrder1795604843150,
  Findings1795876500649,
  FindingPeriodSeverity1795889233428,
  FindingCounts1795889233429,
  Events1795915440486,
  ServiceAccountsScopedKeys1795916948858,
  OidcSubject1795917012893,
  AssetIdentity1795924778051,
  AssetIdentitySearch1795924778052,
  WebhookDeliveryClaims1795926679875,
  AssetTags1795937393571,
  AssetAliases1795940314850,
  WebhookHolds1795940460305,
  FindingsFixedOrder1795960190892,
  AssetsRiskOrder1795982513778,
];
