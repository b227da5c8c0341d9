/**
 * @veche/discovery: the public server catalogue (publication, states, search, previews, joining
 * without an invitation, reports, the staff queue). Ports other domains answer: CatalogueGuilds,
 * CatalogueStaff, OwnerTwoFactor, OnlineCounts.
 */
export * as CatalogueAudit from "./CatalogueAudit.ts"
export * as CatalogueCheck from "./CatalogueCheck.ts"
export * as CatalogueGuilds from "./CatalogueGuilds.ts"
export * as CatalogueStaff from "./CatalogueStaff.ts"
export * as Categories from "./Categories.ts"
export * as Discovery from "./Discovery.ts"
export * as DiscoveryConfig from "./DiscoveryConfig.ts"
export * as DiscoveryDomain from "./DiscoveryDomain.ts"
export * as DiscoveryErrors from "./DiscoveryErrors.ts"
export * as DiscoveryRepo from "./DiscoveryRepo.ts"
export * as Listing from "./Listing.ts"
export * as OnlineCounts from "./OnlineCounts.ts"
export * as OwnerTwoFactor from "./OwnerTwoFactor.ts"
export * as Requirements from "./Requirements.ts"
export * as Slugs from "./Slugs.ts"
export * as TextMatch from "./TextMatch.ts"
export * as Words from "./Words.ts"
export * as WordsRepo from "./WordsRepo.ts"
