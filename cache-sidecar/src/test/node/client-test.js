// Runs the real @yolean/kafka-keyvalue client (CommonJS) against a cache-sidecar.
// Driven by NodeClientIT: env SIDECAR_URL, TOPIC, TARGET_PORT. Marker lines start with "@@".
'use strict';
const assert = require('assert');
const express = require('express');
const prom = require('prom-client');
const kkvModule = require('@yolean/kafka-keyvalue');
const KafkaKeyValue = kkvModule.default;
const { NotFoundError, getOnUpdateRoute, ON_UPDATE_DEFAULT_PATH } = kkvModule;

const say = (line) => process.stdout.write('@@' + line + '\n');
const fail = (err) => { say('FAIL ' + (err && err.stack || err)); process.exit(1); };
process.on('unhandledRejection', fail);
const timeout = (ms, what) => new Promise((_, reject) => setTimeout(() => reject(new Error('timeout: ' + what)), ms));

async function main() {
  const app = express();
  app.post(ON_UPDATE_DEFAULT_PATH, getOnUpdateRoute());
  const server = await new Promise((resolve) => {
    const s = app.listen(Number(process.env.TARGET_PORT), '127.0.0.1', () => resolve(s));
  });

  const kkv = new KafkaKeyValue({
    cacheHost: process.env.SIDECAR_URL,
    topicName: process.env.TOPIC,
    metrics: KafkaKeyValue.createMetrics(prom.Counter, prom.Gauge, prom.Histogram),
  });
  await Promise.race([kkv.onReady(), timeout(30000, 'onReady')]);
  say('onReady resolved');

  assert.deepStrictEqual(await kkv.get('k1'), { a: 1 });
  say('get k1 ok');

  let notFound = null;
  try {
    await kkv.get('absent');
  } catch (e) {
    notFound = e;
  }
  assert.ok(notFound instanceof NotFoundError, 'absent key gives NotFoundError, got ' + notFound);
  say('get absent NotFoundError ok');

  const values = [];
  await kkv.streamValues((v) => values.push(v));
  values.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  assert.deepStrictEqual(values, [{ a: 1 }, { c: 3 }]);
  say('streamValues ok');

  const updated = new Promise((resolve) => {
    kkv.onUpdate((key, value) => {
      if (key === 'k2') {
        resolve(value);
      }
    });
  });
  say('PRODUCE');
  const value = await Promise.race([updated, timeout(30000, 'onUpdate for k2')]);
  assert.deepStrictEqual(value, { b: 2 });
  say('onUpdate k2 ok');

  // The tombstone of k1 (produced after k2) is notified; the client must survive the 404 on refetch.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  say('tombstone survived');
  kkv.close();
  server.close();
  say('PASS');
  process.exit(0);
}

main().catch(fail);
