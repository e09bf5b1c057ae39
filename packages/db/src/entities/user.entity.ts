import { randomUUID } from 'node:crypto';
import { defineEntity, p } from '@mikro-orm/core';

export const userRoles = ['user', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

const UserSchema = defineEntity({
  name: 'User',
  // `user` is a reserved word in PostgreSQL; a plural name keeps hand-written SQL unquoted.
  tableName: 'users',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    username: p.string().length(32),
    /** Lower-cased by callers before it gets here. */
    email: p.string().length(254).unique(),
    passwordHash: p.string(),
    avatar: p.string().default(''),
    level: p.integer().default(1),
    /**
     * The level an administrator set, kept apart from `level` so the plans a user buys, renews or lets lapse never
     * take it away: their level is the higher of this and their plan's. Null: never set by an administrator.
     */
    adminLevel: p.integer().nullable(),
    role: p.enum(userRoles).default('user'),
    disabled: p.boolean().default(false),
    lastLoginIp: p.string().length(64).nullable(),
    lastLoginAt: p.datetime().nullable(),
    /**
     * The sign-in before the latest one: what the profile shows as the last login, since the latest is
     * the visit the person is making. Null until a second sign-in (registration counts as the first).
     */
    previousLoginIp: p.string().length(64).nullable(),
    previousLoginAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
