// The time zone of a phone number (quiet hours of broadcasts, ADR 061): a NANP number's area code gives
// its zone; another country's number its country's main zone; unknown: null (ADR 063).
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The NANP area codes of the United States (and its territories) and Canada, by IANA zone: every assigned
 * code (and the overlays announced), each in the zone of most of its people where its area spans two.
 */
const NANP_ZONES: Record<string, string[]> = {
  'America/New_York': [
    // CT
    '203 475 860 959',
    // DE
    '302',
    // DC
    '202 771',
    // FL
    '239 305 321 324 352 386 407 561 645 656 689 727 728 754 772 786 813 863 904 941 954',
    // GA
    '229 404 470 478 678 706 762 770 912 943',
    // KY
    '502 606 859',
    // ME
    '207',
    // MD
    '227 240 301 410 443 667',
    // MA
    '339 351 413 508 617 774 781 857 978',
    // NH
    '603',
    // NJ
    '201 551 609 640 732 848 856 862 908 973',
    // NY
    '212 315 329 332 347 363 516 518 585 607 624 631 646 680 716 718 838 845 914 917 929 934',
    // NC
    '252 336 472 704 743 828 910 919 980 984',
    // OH
    '216 220 234 283 326 330 380 419 436 440 513 567 614 740 937',
    // PA
    '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878',
    // RI
    '401',
    // SC
    '803 821 839 843 854 864',
    // TN
    '423 865',
    // VT
    '802',
    // VA
    '276 434 540 571 686 703 757 804 826 948',
    // WV
    '304 681',
  ],
  'America/Detroit': [
    // MI
    '231 248 269 313 517 586 616 679 734 810 906 947 989',
  ],
  'America/Indiana/Indianapolis': [
    // IN
    '260 317 463 574 765 812 930',
  ],
  'America/Chicago': [
    // AL
    '205 251 256 334 483 659 938',
    // AR
    '327 479 501 870',
    // FL
    '448 850',
    // IL
    '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872',
    // IN
    '219',
    // IA
    '319 515 563 641 712',
    // KS
    '316 620 785 913',
    // KY
    '270 364',
    // LA
    '225 318 337 457 504 985',
    // MN
    '218 320 507 612 651 763 924 952',
    // MS
    '228 601 662 769',
    // MO
    '235 314 417 557 573 636 660 816 975',
    // NE
    '308 402 531',
    // ND
    '701',
    // OK
    '405 539 572 580 918',
    // SD
    '605',
    // TN
    '615 629 731 901 931',
    // TX
    '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979',
    // WI
    '262 274 353 414 534 608 715 920',
  ],
  'America/Denver': [
    // CO
    '303 719 720 970 983',
    // MT
    '406',
    // NM
    '505 575',
    // UT
    '385 435 801',
    // WY
    '307',
    // TX
    '915',
  ],
  'America/Boise': [
    // ID
    '208 986',
  ],
  'America/Phoenix': [
    // AZ
    '480 520 602 623 928',
  ],
  'America/Los_Angeles': [
    // CA
    '209 213 279 310 323 341 350 357 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 738 747 760 805 818 820 831 837 840 858 909 916 925 949 951',
    // NV
    '702 725 775',
    // OR
    '458 503 541 971',
    // WA
    '206 253 360 425 509 564',
  ],
  'America/Anchorage': [
    // AK
    '907',
  ],
  'Pacific/Honolulu': [
    // HI
    '808',
  ],
  'America/Puerto_Rico': [
    // PR
    '787 939',
  ],
  'America/St_Thomas': [
    // VI
    '340',
  ],
  'Pacific/Guam': [
    // GU
    '671',
  ],
  'Pacific/Saipan': [
    // MP
    '670',
  ],
  'Pacific/Pago_Pago': [
    // AS
    '684',
  ],
  'America/St_Johns': [
    // NL
    '709 879',
  ],
  'America/Halifax': [
    // NS-PE
    '782 902',
  ],
  'America/Moncton': [
    // NB
    '428 506',
  ],
  'America/Toronto': [
    // ON
    '226 249 289 343 365 382 387 416 437 519 548 613 647 683 705 742 753 807 905 942',
    // QC
    '263 354 367 418 438 450 468 514 579 581 819 873',
  ],
  'America/Winnipeg': [
    // MB
    '204 431 584',
  ],
  'America/Regina': [
    // SK
    '306 474 639',
  ],
  'America/Edmonton': [
    // AB
    '368 403 587 780 825',
    // NT-NU-YT
    '867',
  ],
  'America/Vancouver': [
    // BC
    '236 250 257 604 672 778',
  ],
};

const AREA_CODE_ZONE = new Map<string, string>(
  Object.entries(NANP_ZONES).flatMap(([zone, lists]) =>
    lists.flatMap((list) => list.split(' ').map((code) => [code, zone] as const)),
  ),
);

/** Each country's main zone (its capital's or most of its people's), by ISO 3166 code, from tzdata. */
const COUNTRY_ZONE: Partial<Record<CountryCode | string, string>> = {
  AD: 'Europe/Andorra',
  AE: 'Asia/Dubai',
  AF: 'Asia/Kabul',
  AG: 'America/Antigua',
  AI: 'America/Anguilla',
  AL: 'Europe/Tirane',
  AM: 'Asia/Yerevan',
  AO: 'Africa/Luanda',
  AR: 'America/Argentina/Buenos_Aires',
  AS: 'Pacific/Pago_Pago',
  AT: 'Europe/Vienna',
  AU: 'Australia/Sydney',
  AW: 'America/Aruba',
  AX: 'Europe/Mariehamn',
  AZ: 'Asia/Baku',
  BA: 'Europe/Sarajevo',
  BB: 'America/Barbados',
  BD: 'Asia/Dhaka',
  BE: 'Europe/Brussels',
  BF: 'Africa/Ouagadougou',
  BG: 'Europe/Sofia',
  BH: 'Asia/Bahrain',
  BI: 'Africa/Bujumbura',
  BJ: 'Africa/Porto-Novo',
  BL: 'America/St_Barthelemy',
  BM: 'Atlantic/Bermuda',
  BN: 'Asia/Brunei',
  BO: 'America/La_Paz',
  BQ: 'America/Kralendijk',
  BR: 'America/Sao_Paulo',
  BS: 'America/Nassau',
  BT: 'Asia/Thimphu',
  BW: 'Africa/Gaborone',
  BY: 'Europe/Minsk',
  BZ: 'America/Belize',
  CA: 'America/Toronto',
  CC: 'Indian/Cocos',
  CD: 'Africa/Kinshasa',
  CF: 'Africa/Bangui',
  CG: 'Africa/Brazzaville',
  CH: 'Europe/Zurich',
  CI: 'Africa/Abidjan',
  CK: 'Pacific/Rarotonga',
  CL: 'America/Santiago',
  CM: 'Africa/Douala',
  CN: 'Asia/Shanghai',
  CO: 'America/Bogota',
  CR: 'America/Costa_Rica',
  CU: 'America/Havana',
  CV: 'Atlantic/Cape_Verde',
  CW: 'America/Curacao',
  CX: 'Indian/Christmas',
  CY: 'Asia/Nicosia',
  CZ: 'Europe/Prague',
  DE: 'Europe/Berlin',
  DJ: 'Africa/Djibouti',
  DK: 'Europe/Copenhagen',
  DM: 'America/Dominica',
  DO: 'America/Santo_Domingo',
  DZ: 'Africa/Algiers',
  EC: 'America/Guayaquil',
  EE: 'Europe/Tallinn',
  EG: 'Africa/Cairo',
  EH: 'Africa/El_Aaiun',
  ER: 'Africa/Asmara',
  ES: 'Europe/Madrid',
  ET: 'Africa/Addis_Ababa',
  FI: 'Europe/Helsinki',
  FJ: 'Pacific/Fiji',
  FK: 'Atlantic/Stanley',
  FM: 'Pacific/Pohnpei',
  FO: 'Atlantic/Faroe',
  FR: 'Europe/Paris',
  GA: 'Africa/Libreville',
  GB: 'Europe/London',
  GD: 'America/Grenada',
  GE: 'Asia/Tbilisi',
  GF: 'America/Cayenne',
  GG: 'Europe/Guernsey',
  GH: 'Africa/Accra',
  GI: 'Europe/Gibraltar',
  GL: 'America/Nuuk',
  GM: 'Africa/Banjul',
  GN: 'Africa/Conakry',
  GP: 'America/Guadeloupe',
  GQ: 'Africa/Malabo',
  GR: 'Europe/Athens',
  GS: 'Atlantic/South_Georgia',
  GT: 'America/Guatemala',
  GU: 'Pacific/Guam',
  GW: 'Africa/Bissau',
  GY: 'America/Guyana',
  HK: 'Asia/Hong_Kong',
  HN: 'America/Tegucigalpa',
  HR: 'Europe/Zagreb',
  HT: 'America/Port-au-Prince',
  HU: 'Europe/Budapest',
  ID: 'Asia/Jakarta',
  IE: 'Europe/Dublin',
  IL: 'Asia/Jerusalem',
  IM: 'Europe/Isle_of_Man',
  IN: 'Asia/Kolkata',
  IO: 'Indian/Chagos',
  IQ: 'Asia/Baghdad',
  IR: 'Asia/Tehran',
  IS: 'Atlantic/Reykjavik',
  IT: 'Europe/Rome',
  JE: 'Europe/Jersey',
  JM: 'America/Jamaica',
  JO: 'Asia/Amman',
  JP: 'Asia/Tokyo',
  KE: 'Africa/Nairobi',
  KG: 'Asia/Bishkek',
  KH: 'Asia/Phnom_Penh',
  KI: 'Pacific/Tarawa',
  KM: 'Indian/Comoro',
  KN: 'America/St_Kitts',
  KP: 'Asia/Pyongyang',
  KR: 'Asia/Seoul',
  KW: 'Asia/Kuwait',
  KY: 'America/Cayman',
  KZ: 'Asia/Almaty',
  LA: 'Asia/Vientiane',
  LB: 'Asia/Beirut',
  LC: 'America/St_Lucia',
  LI: 'Europe/Vaduz',
  LK: 'Asia/Colombo',
  LR: 'Africa/Monrovia',
  LS: 'Africa/Maseru',
  LT: 'Europe/Vilnius',
  LU: 'Europe/Luxembourg',
  LV: 'Europe/Riga',
  LY: 'Africa/Tripoli',
  MA: 'Africa/Casablanca',
  MC: 'Europe/Monaco',
  MD: 'Europe/Chisinau',
  ME: 'Europe/Podgorica',
  MF: 'America/Marigot',
  MG: 'Indian/Antananarivo',
  MH: 'Pacific/Majuro',
  MK: 'Europe/Skopje',
  ML: 'Africa/Bamako',
  MM: 'Asia/Yangon',
  MN: 'Asia/Ulaanbaatar',
  MO: 'Asia/Macau',
  MP: 'Pacific/Saipan',
  MQ: 'America/Martinique',
  MR: 'Africa/Nouakchott',
  MS: 'America/Montserrat',
  MT: 'Europe/Malta',
  MU: 'Indian/Mauritius',
  MV: 'Indian/Maldives',
  MW: 'Africa/Blantyre',
  MX: 'America/Mexico_City',
  MY: 'Asia/Kuala_Lumpur',
  MZ: 'Africa/Maputo',
  NA: 'Africa/Windhoek',
  NC: 'Pacific/Noumea',
  NE: 'Africa/Niamey',
  NF: 'Pacific/Norfolk',
  NG: 'Africa/Lagos',
  NI: 'America/Managua',
  NL: 'Europe/Amsterdam',
  NO: 'Europe/Oslo',
  NP: 'Asia/Kathmandu',
  NR: 'Pacific/Nauru',
  NU: 'Pacific/Niue',
  NZ: 'Pacific/Auckland',
  OM: 'Asia/Muscat',
  PA: 'America/Panama',
  PE: 'America/Lima',
  PF: 'Pacific/Tahiti',
  PG: 'Pacific/Port_Moresby',
  PH: 'Asia/Manila',
  PK: 'Asia/Karachi',
  PL: 'Europe/Warsaw',
  PM: 'America/Miquelon',
  PN: 'Pacific/Pitcairn',
  PR: 'America/Puerto_Rico',
  PS: 'Asia/Gaza',
  PT: 'Europe/Lisbon',
  PW: 'Pacific/Palau',
  PY: 'America/Asuncion',
  QA: 'Asia/Qatar',
  RE: 'Indian/Reunion',
  RO: 'Europe/Bucharest',
  RS: 'Europe/Belgrade',
  RU: 'Europe/Moscow',
  RW: 'Africa/Kigali',
  SA: 'Asia/Riyadh',
  SB: 'Pacific/Guadalcanal',
  SC: 'Indian/Mahe',
  SD: 'Africa/Khartoum',
  SE: 'Europe/Stockholm',
  SG: 'Asia/Singapore',
  SH: 'Atlantic/St_Helena',
  SI: 'Europe/Ljubljana',
  SJ: 'Arctic/Longyearbyen',
  SK: 'Europe/Bratislava',
  SL: 'Africa/Freetown',
  SM: 'Europe/San_Marino',
  SN: 'Africa/Dakar',
  SO: 'Africa/Mogadishu',
  SR: 'America/Paramaribo',
  SS: 'Africa/Juba',
  ST: 'Africa/Sao_Tome',
  SV: 'America/El_Salvador',
  SX: 'America/Lower_Princes',
  SY: 'Asia/Damascus',
  SZ: 'Africa/Mbabane',
  TC: 'America/Grand_Turk',
  TD: 'Africa/Ndjamena',
  TF: 'Indian/Kerguelen',
  TG: 'Africa/Lome',
  TH: 'Asia/Bangkok',
  TJ: 'Asia/Dushanbe',
  TK: 'Pacific/Fakaofo',
  TL: 'Asia/Dili',
  TM: 'Asia/Ashgabat',
  TN: 'Africa/Tunis',
  TO: 'Pacific/Tongatapu',
  TR: 'Europe/Istanbul',
  TT: 'America/Port_of_Spain',
  TV: 'Pacific/Funafuti',
  TW: 'Asia/Taipei',
  TZ: 'Africa/Dar_es_Salaam',
  UA: 'Europe/Kyiv',
  UG: 'Africa/Kampala',
  US: 'America/New_York',
  UY: 'America/Montevideo',
  UZ: 'Asia/Tashkent',
  VA: 'Europe/Vatican',
  VC: 'America/St_Vincent',
  VE: 'America/Caracas',
  VG: 'America/Tortola',
  VI: 'America/St_Thomas',
  VN: 'Asia/Ho_Chi_Minh',
  VU: 'Pacific/Efate',
  WF: 'Pacific/Wallis',
  WS: 'Pacific/Apia',
  YE: 'Asia/Aden',
  YT: 'Indian/Mayotte',
  ZA: 'Africa/Johannesburg',
  ZM: 'Africa/Lusaka',
  ZW: 'Africa/Harare',
};

/** The main country of a calling code several countries share (a number libphonenumber cannot place). */
const MAIN_COUNTRY_OF_CODE: Record<string, string> = {
  '1': 'US',
  '7': 'RU',
  '44': 'GB',
  '47': 'NO',
  '61': 'AU',
  '39': 'IT',
  '212': 'MA',
  '262': 'RE',
  '290': 'SH',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
};

/** The IANA time zone of an E.164 phone, or null when it cannot be told. */
export function timeZoneOfPhone(e164: string): string | null {
  if (!/^\+[1-9]\d{6,14}$/.test(e164)) return null;
  if (e164.startsWith('+1')) {
    const zone = AREA_CODE_ZONE.get(e164.slice(2, 5));
    if (zone) return zone;
  }
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return null;
  const country =
    parsed.country ?? parsed.getPossibleCountries()[0] ?? MAIN_COUNTRY_OF_CODE[parsed.countryCallingCode];
  // A US or Canadian area code not in the table spans a continent: better unknown than a wrong zone.
  if (parsed.countryCallingCode === '1' && (!country || country === 'US' || country === 'CA')) return null;
  return (country && COUNTRY_ZONE[country]) ?? null;
}
