/** A tenant's plan (other modules read it here, not from the entity). */
export type Plan = 'free' | 'pro' | 'enterprise';
export const PLANS: Plan[] = ['free', 'pro', 'enterprise'];
