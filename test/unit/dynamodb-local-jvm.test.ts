import { describe, expect, it } from 'vitest';
import { dynamoLocalJavaOptions } from '../../infra/local/emulators';

describe("DynamoDB Local's JVM options", () => {
  it('are a 512 MB heap and the serial collector unless DYNAMODB_LOCAL_JAVA_OPTS says otherwise', () => {
    expect(dynamoLocalJavaOptions({})).toEqual(['-Xmx512m', '-XX:+UseSerialGC']);
    expect(dynamoLocalJavaOptions({ DYNAMODB_LOCAL_JAVA_OPTS: '  ' })).toEqual(['-Xmx512m', '-XX:+UseSerialGC']);
  });

  it('are exactly those DYNAMODB_LOCAL_JAVA_OPTS gives, split on white space', () => {
    expect(dynamoLocalJavaOptions({ DYNAMODB_LOCAL_JAVA_OPTS: '-Xmx1g  -XX:TieredStopAtLevel=1' })).toEqual(['-Xmx1g', '-XX:TieredStopAtLevel=1']);
  });
});
