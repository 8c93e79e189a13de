import test from 'ava';
import { audienceIncludes, isSameResource, protectedResourceMetadataUrl, resourceIdentifier } from '../src/index.ts';

test('the identifier is the public base URL, serialized as URL clients compare it', (t) => {
  t.is(resourceIdentifier('http://localhost:8888'), 'http://localhost:8888/');
  t.is(resourceIdentifier('https://Heroes.Example:443/'), 'https://heroes.example/');
  t.is(resourceIdentifier('https://example.com/heroes-api'), 'https://example.com/heroes-api');
});

test('a resource value names the hero API with or without the trailing slash, nothing else', (t) => {
  const id = resourceIdentifier('http://localhost:8888');
  for (const same of ['http://localhost:8888', 'http://localhost:8888/', 'HTTP://LOCALHOST:8888']) t.true(isSameResource(same, id), same);
  for (const other of ['http://localhost:8889/', 'http://localhost:8888/heroes', 'http://localhost:8888/#x', 'https://localhost:8888/', 'localhost:8888', '/', '', 'urn:heroes', 'not a uri']) {
    t.false(isSameResource(other, id), other);
  }
  const pathId = resourceIdentifier('https://example.com/api');
  t.true(isSameResource('https://example.com/api/', pathId));
  t.false(isSameResource('https://example.com/', pathId));
});

test('the metadata document is at the well-known path inserted before the path (RFC 9728 3.1)', (t) => {
  t.is(protectedResourceMetadataUrl('http://localhost:8888/'), 'http://localhost:8888/.well-known/oauth-protected-resource');
  t.is(protectedResourceMetadataUrl('https://example.com/api'), 'https://example.com/.well-known/oauth-protected-resource/api');
});

test('an audience is a string or a list of strings', (t) => {
  const id = 'http://localhost:8888/';
  t.true(audienceIncludes(id, id));
  t.true(audienceIncludes(['https://other.example/', 'http://localhost:8888'], id));
  t.false(audienceIncludes('https://other.example/', id));
  t.false(audienceIncludes(undefined, id));
  t.false(audienceIncludes([42], id));
});
