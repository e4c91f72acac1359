import { AccountEntity, ApiTokenEntity, RefreshTokenEntity, UserEntity } from './accounts/account.entities.js';
import { SiteEntity } from './sites/site.entity.js';

export const entities = [AccountEntity, UserEntity, ApiTokenEntity, RefreshTokenEntity, SiteEntity];
