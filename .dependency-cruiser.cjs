/** Layer rules of DEVELOPERS.md, checked by `npm run lint`. */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-is-framework-free',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: 'node_modules/(express|graphql|type-graphql|@apollo|dataloader|tsyringe)/' },
    },
    {
      name: 'core-does-not-know-adapters',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(rest|graphql|app)/' },
    },
    {
      name: 'domain-is-orm-free',
      severity: 'error',
      from: { path: '^core/domain/' },
      to: { path: ['node_modules/@mikro-orm/', 'node_modules/zod/', '^core/persistence/'] },
    },
    { name: 'rest-not-graphql', severity: 'error', from: { path: '^rest/' }, to: { path: '^(graphql|app)/' } },
    { name: 'graphql-not-rest', severity: 'error', from: { path: '^graphql/' }, to: { path: '^(rest|app)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
