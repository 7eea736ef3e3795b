/**
 * Google Ads language criterion ids (`languageConstants/{id}`) by ISO 639-1 code, from Google Ads'
 * table of language codes (developers.google.com/google-ads/api/data/codes-formats#languages).
 * Google Ads targets these 51 languages only; a market in another language has no Keyword Planner
 * data. Hebrew is `iw` and Norwegian `no` in Google's table; `he` and `nb` map to them, and
 * Chinese (`zh`) to simplified Chinese.
 */
const LANGUAGE_IDS: ReadonlyMap<string, number> = new Map(
  (
    'en1000 de1001 fr1002 es1003 it1004 ja1005 da1009 nl1010 fi1011 ko1012 no1013 nb1013 pt1014 sv1015 zh1017 ' +
    'ar1019 bg1020 cs1021 el1022 hi1023 hu1024 id1025 is1026 iw1027 he1027 lv1028 lt1029 pl1030 ru1031 ro1032 ' +
    'sk1033 sl1034 sr1035 uk1036 tr1037 ca1038 hr1039 vi1040 ur1041 tl1042 et1043 th1044 bn1056 fa1064 gu1072 ' +
    'kn1086 ml1098 mr1101 ms1102 pa1110 ta1130 te1131'
  )
    .split(' ')
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))] as const),
);

/** `languageConstants/1000` for `en`, or undefined for a language Google Ads does not target. */
export function googleAdsLanguageConstant(langCode: string): string | undefined {
  const id = LANGUAGE_IDS.get(langCode.toLowerCase());
  return id === undefined ? undefined : `languageConstants/${id}`;
}
