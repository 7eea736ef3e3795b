// The root tsconfig resolves modules the "node10" way (module: commonjs), which ignores
// package.json "exports", so TypeScript cannot find chdb's `chdb/connection` subpath by itself
// (Node and jest can). Point it at the declarations that subpath serves.
declare module 'chdb/connection' {
  export * from 'chdb/dist/connection/index';
}
