import { ApiKey } from '../auth/api-key.entity.js';
import { User } from '../auth/user.entity.js';

/** Every entity of the service; features share them through TypeORM. */
export const ENTITIES = [User, ApiKey];
