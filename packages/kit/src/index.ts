/**
 * @veche/kit: every Veche domain composed once. `Veche.layer` builds the domain services and the
 * wiring between domains; a host chooses storage (`Veche.Repositories`), providers
 * (`Veche.Providers`) and configuration (`Veche.Configuration`), and serves the routes.
 */
export * as Veche from "./Veche.ts"
