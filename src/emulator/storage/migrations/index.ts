// Every schema migration in order. Append a module to add tables; never edit one that has shipped.
import type { Migration } from '../migrate';
import { core } from './001-core';
import { workManagement } from './tasks';
import { analytics } from './analytics';
import { files } from './files';
import { rules } from './rules';
import { orders } from './orders';
import { searchIndexes } from './searchIndexes';
import { fieldReadOnly } from './fieldReadOnly';
import { tenantConfiguration } from './tenantConfiguration';
import { searchWords } from './searchWords';
import { orderFields } from './orderFields';
import { refreshTokens } from './refreshTokens';
import { recordTrail } from './recordTrail';
import { configurationObjects } from './configurationObjects';
import { recordAiInfluenced } from './recordAiInfluenced';
import { titleOrder } from './titleOrder';
import { compactKeys } from './compactKeys';
import { searchStamp } from './searchStamp';
import { fileCheckout } from './fileCheckout';
import { activities } from './activities';
import { stagedBlocks } from './stagedBlocks';

export const migrations: Migration[] = [core, workManagement, analytics, files, rules, orders, searchIndexes, fieldReadOnly, tenantConfiguration, searchWords, orderFields, refreshTokens, recordTrail, configurationObjects, recordAiInfluenced, titleOrder, compactKeys, searchStamp, activities, fileCheckout, stagedBlocks];
