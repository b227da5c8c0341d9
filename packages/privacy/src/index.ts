/**
 * @veche/privacy: account deletion and data export, above every domain, reaching each through the
 * `PersonalData` port (`@veche/users`) that the domains answer.
 */
export * as AccountDeletion from "./AccountDeletion.ts"
export * as DataExport from "./DataExport.ts"
export * as DataExports from "./DataExports.ts"
export * as DataExportsRepo from "./DataExportsRepo.ts"
export * as Deletion from "./Deletion.ts"
export * as DeletionsRepo from "./DeletionsRepo.ts"
export * as ExportArchive from "./ExportArchive.ts"
export * as PrivacyDomain from "./PrivacyDomain.ts"
export * as PrivacyErrors from "./PrivacyErrors.ts"
export * as ZipWriter from "./ZipWriter.ts"
