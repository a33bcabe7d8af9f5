// The part of jstat (which ships no types) that the service uses.
declare module 'jstat' {
  export const jStat: {
    studentt: {
      /** The quantile of Student's t distribution with `dof` degrees of freedom at probability `p`. */
      inv(p: number, dof: number): number;
    };
  };
}
