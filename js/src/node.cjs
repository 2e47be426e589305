// CommonJS entry of editcore/node: the ES module loaded on first use (see index.cjs).
'use strict';
const main = require('./index.cjs');
let loading = null;
const load = () => (loading ??= import('./node.js'));

Object.assign(exports, main);
/** The adapter's methods are async, so each one waits for the ES module on its first call. */
exports.nodeAdapter = (root, options) => {
  const real = load().then((m) => m.nodeAdapter(root, options));
  const call = (fn) => (...args) => real.then((a) => a[fn](...args));
  return { root, stat: call('stat'), readFile: call('readFile'), writeFile: call('writeFile'), delete: call('delete'), commit: call('commit') };
};
exports.allowedAdapter = (dirs, options) => {
  const real = load().then((m) => m.allowedAdapter(dirs, options));
  const call = (fn) => (...args) => real.then((a) => a[fn](...args));
  return { root: '/', stat: call('stat'), readFile: call('readFile'), writeFile: call('writeFile'), delete: call('delete'), commit: call('commit'), realpath: call('realpath') };
};
exports.createNodeHost = (root, defaults) => main.createHost(exports.nodeAdapter(root), defaults);
