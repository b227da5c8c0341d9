/**
 * @veche/users: user accounts, profiles, settings and relationships, and the dispatches their
 * changes publish. Ports other domains answer: Memberships, AccountDetails, UserImages, ProfileEntitlements
 * (billing's Plus: banner, animated avatar; free by default).
 */
export * as AccountDetails from "./AccountDetails.ts"
export * as CurrentUser from "./CurrentUser.ts"
export * as CurrentUserPrefetch from "./CurrentUserPrefetch.ts"
export * as Memberships from "./Memberships.ts"
export * as PersonalData from "./PersonalData.ts"
export * as Profile from "./Profile.ts"
export * as ProfileEntitlements from "./ProfileEntitlements.ts"
export * as Profiles from "./Profiles.ts"
export * as ProfilesRepo from "./ProfilesRepo.ts"
export * as PublicUser from "./PublicUser.ts"
export * as PublicUsers from "./PublicUsers.ts"
export * as Relationship from "./Relationship.ts"
export * as Relationships from "./Relationships.ts"
export * as RelationshipsRepo from "./RelationshipsRepo.ts"
export * as User from "./User.ts"
export * as UserDispatches from "./UserDispatches.ts"
export * as UserImages from "./UserImages.ts"
export * as UserPersonalData from "./UserPersonalData.ts"
export * as UserRecords from "./UserRecords.ts"
export * as UsersDomain from "./UsersDomain.ts"
export * as UsersErrors from "./UsersErrors.ts"
export * as UsersRepo from "./UsersRepo.ts"
