// Prices are pure data the workflow also needs (budget projection), so they live in shared/.
export * from '../../domain/model/pricing';
