// Prices are pure data the workflow also needs (budget projection), so they live in domain/model/.
export * from '../../domain/model/pricing';
