import { declaredParamTypes, decodeHttpParam, TupleParam } from './http-query-params';

describe('HTTP query parameters', () => {
  it('finds the declared type of each placeholder', () => {
    const types = declaredParamTypes("SELECT {a:String}, { b : Map(String, Array(UInt8)) } WHERE x = '{c:UInt8}'");

    expect(Object.fromEntries(types)).toEqual({ a: 'String', b: 'Map(String, Array(UInt8))', c: 'UInt8' });
  });

  it('unescapes scalar values and reads \\N as NULL', () => {
    expect(decodeHttpParam("it\\'s\\t\\\\\\n\\x41", 'String')).toBe("it's\t\\\nA");
    expect(decodeHttpParam('\\N', 'Nullable(String)')).toBeNull();
    expect(decodeHttpParam('1704164645.678', "DateTime64(3, 'UTC')")).toBe('1704164645.678');
  });

  it('parses composite literals into values chDB binds the same way', () => {
    expect(decodeHttpParam("['a\\'b',NULL,'c\\\\d']", 'Array(Nullable(String))')).toEqual(["a'b", null, 'c\\d']);
    expect(decodeHttpParam('[18446744073709551615,-1,2.5,TRUE]', 'Array(Float64)')).toEqual([18446744073709551615n, -1n, 2.5, true]);
    expect(decodeHttpParam("{'k':[1]}", 'LowCardinality(Map(String, Array(UInt8)))')).toEqual(new Map([['k', [1n]]]));
    expect(decodeHttpParam("(1,'x')", 'Tuple(UInt8, String)')).toEqual(new TupleParam([1n, 'x']));
  });

  it('rejects a malformed composite literal', () => {
    expect(() => decodeHttpParam("['unterminated", 'Array(String)')).toThrow(/unterminated string/);
    expect(() => decodeHttpParam('[1] 2', 'Array(UInt8)')).toThrow(/unexpected text/);
  });
});
