/**
 * @veche/yookassa: billing's PaymentProvider on YooKassa's API v3 (no SDK: Effect's HttpClient),
 * and the published notification sources. A fake of the v3 API for tests: `@veche/yookassa/test/FakeYooKassa`.
 */
export * as NotifySources from "./NotifySources.ts"
export * as YooKassaPaymentProvider from "./YooKassaPaymentProvider.ts"
