import type { MigrationInterface } from 'typeorm';
import { Init1795303041751 } from './1795303041751-Init.js';
import { Inventory1795303938642 } from './1795303938642-Inventory.js';
import { Provenance1795496332743 } from './1795496332743-Provenance.js';
import { Runs1795496985232 } from './1795496985232-Runs.js';
import { Services1795512534090 } from './1795512534090-Services.js';
import { Changes1795527851797 } from './1795527851797-Changes.js';
import { AssetSearch1795527936776 } from './1795527936776-AssetSearch.js';
import { AssetCount1795527936777 } from './1795527936777-AssetCount.js';
import { ChangeSets1795601152203 } from './1795601152203-ChangeSets.js';
import { ChangeIdOrder1795604857998 } from './1795604857998-ChangeIdOrder.js';
import { Findings1795876503670 } from './1795876503670-Findings.js';
import { FindingPeriodSeverity1795889238826 } from './1795889238826-FindingPeriodSeverity.js';
import { FindingCounts1795889238827 } from './1795889238827-FindingCounts.js';
import { Events1795915445210 } from './1795915445210-Events.js';
import { ServiceAccountsScopedKeys1795916957483 } from './1795916957483-ServiceAccountsScopedKeys.js';
import { OidcSubject1795917021485 } from './1795917021485-OidcSubject.js';
import { AssetIdentity1795924786055 } from './1795924786055-AssetIdentity.js';
import { AssetIdentitySearch1795924786056 } from './1795924786056-AssetIdentitySearch.js';
import { WebhookDeliveryClaims1795926691502 } from './1795926691502-WebhookDeliveryClaims.js';
import { AssetTags1795937399118 } from './1795937399118-AssetTags.js';
import { AssetAliases1795940333097 } from './1795940333097-AssetAliases.js';
import { WebhookHolds1795940483656 } from './1795940483656-WebhookHolds.js';
import { FindingsFixedOrder1795960190892 } from './1795960190892-FindingsFixedOrder.js';
import { AssetsRiskOrder1795982513778 } from './1795982513778-AssetsRiskOrder.js';

/** Applied in this order; add each newly generated migration here. */
export const POSTGRES_MIGRATIONS: (new () => MigrationInterface)[] = [
  Init1795303041751,
  Inventory1795303938642,
  Provenance1795496332743,
  Runs1795496985232,
  Services1795512534090,
  Changes1795527851797,
  AssetSearch1795527936776,
  AssetCount1795527936777,
  ChangeSets1795601152203,
  ChangeIdOrder1795604857998,
  Findings1795876503670,
  FindingPeriodSeverity1795889238826,
  FindingCounts1795889238827,
  Events1795915445210,
  ServiceAccountsScopedKeys1795916957483,
  OidcSubject1795917021485,
  AssetIdentity1795924786055,
  AssetIdentitySearch1795924786056,
  WebhookDeliveryClaims1795926691502,
  AssetTags1795937399118,
  AssetAliases1795940333097,
  WebhookHolds1795940483656,
  FindingsFixedOrder1795960190892,
  AssetsRiskOrder1795982513778,
];
