/**
 * 2 authorization servers and 2 resource servers through Debian's PgBouncer in transaction pooling mode
 * (the checks: e2e/test/_helpers/pooler-suite.ts).
 */
import { definePoolerSuite } from './_helpers/pooler-suite.ts';

definePoolerSuite('transaction');
