/** @veche/users: user accounts. The profile routes and the account lifecycle build on this port. */
export * as Memberships from "./Memberships.ts"
export * as Profile from "./Profile.ts"
export * as ProfilesRepo from "./ProfilesRepo.ts"
export * as Relationship from "./Relationship.ts"
export * as RelationshipsRepo from "./RelationshipsRepo.ts"
export * as User from "./User.ts"
export * as UsersErrors from "./UsersErrors.ts"
export * as UsersRepo from "./UsersRepo.ts"
