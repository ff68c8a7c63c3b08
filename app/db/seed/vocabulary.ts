import type { ContentsType } from "../schema";

/** Bilingual word lists the demo catalog is built from: [code, ko, en]. */
export type Term = readonly [code: string, ko: string, en: string];

export const CATEGORIES: Record<ContentsType, readonly Term[]> = {
  video: [
    ["nature", "자연", "Nature"],
    ["city", "도시", "City"],
    ["business", "비즈니스", "Business"],
    ["technology", "기술", "Technology"],
    ["lifestyle", "라이프스타일", "Lifestyle"],
    ["food", "음식", "Food"],
    ["travel", "여행", "Travel"],
    ["background", "배경", "Backgrounds"],
  ],
  icon: [
    ["arrows", "화살표", "Arrows"],
    ["business", "비즈니스", "Business"],
    ["weather", "날씨", "Weather"],
    ["social", "소셜", "Social"],
    ["education", "교육", "Education"],
    ["media", "미디어", "Media"],
  ],
  audio: [
    ["vlog", "브이로그", "Vlog"],
    ["documentary", "다큐멘터리", "Documentary"],
    ["corporate", "기업 홍보", "Corporate"],
    ["game", "게임", "Game"],
    ["wedding", "웨딩", "Wedding"],
    ["kids", "키즈", "Kids"],
  ],
  font: [
    ["sans", "고딕", "Sans-serif"],
    ["display", "제목용", "Display"],
    ["handwriting", "손글씨", "Handwriting"],
  ],
  package: [
    ["youtube", "유튜브 인트로", "YouTube intro"],
    ["wedding", "웨딩", "Wedding"],
    ["travel", "여행", "Travel"],
    ["business", "비즈니스", "Business"],
  ],
};

export const GENRES: readonly Term[] = [
  ["piano", "피아노", "Piano"],
  ["acoustic", "어쿠스틱", "Acoustic"],
  ["electronic", "일렉트로닉", "Electronic"],
  ["hiphop", "힙합", "Hip-hop"],
  ["jazz", "재즈", "Jazz"],
  ["classical", "클래식", "Classical"],
  ["rock", "록", "Rock"],
  ["ambient", "앰비언트", "Ambient"],
  ["lofi", "로파이", "Lo-fi"],
  ["cinematic", "시네마틱", "Cinematic"],
];

export const MOODS: readonly Term[] = [
  ["calm", "잔잔한", "Calm"],
  ["happy", "행복한", "Happy"],
  ["sad", "슬픈", "Sad"],
  ["energetic", "신나는", "Energetic"],
  ["dramatic", "극적인", "Dramatic"],
  ["romantic", "로맨틱한", "Romantic"],
  ["mysterious", "신비로운", "Mysterious"],
  ["hopeful", "희망찬", "Hopeful"],
];

export const THEMES: Record<ContentsType, readonly Term[]> = {
  video: [
    ["spring", "봄 풍경", "Spring scenery"],
    ["night", "밤의 도시", "City at night"],
  ],
  icon: [["essentials", "필수 아이콘", "Essential icons"]],
  audio: [
    ["study", "공부할 때 듣는 음악", "Music for studying"],
    ["intro", "인트로 효과음", "Intro sound effects"],
  ],
  font: [["title", "자막용 글꼴", "Fonts for captions"]],
  package: [["starter", "스타터 패키지", "Starter packages"]],
};

/** Subjects per type: [ko, en, tag-ko, tag-en]. */
export const SUBJECTS: Record<Exclude<ContentsType, "font">, readonly (readonly [string, string, string, string])[]> = {
  video: [
    ["바다 노을", "Ocean sunset", "바다,노을,해변", "ocean,sunset,beach"],
    ["도시 야경", "City lights at night", "도시,야경,빌딩", "city,night,buildings"],
    ["숲속 햇살", "Sunlight in the forest", "숲,햇살,나무", "forest,sunlight,trees"],
    ["커피 내리기", "Pouring coffee", "커피,카페,음료", "coffee,cafe,drink"],
    ["회의하는 팀", "Team meeting", "회의,팀,사무실", "meeting,team,office"],
    ["눈 내리는 거리", "Snowy street", "눈,겨울,거리", "snow,winter,street"],
    ["벚꽃 길", "Cherry blossom path", "벚꽃,봄,꽃", "cherry blossom,spring,flowers"],
    ["타임랩스 구름", "Cloud timelapse", "구름,하늘,타임랩스", "clouds,sky,timelapse"],
    ["키보드 타이핑", "Typing on a keyboard", "키보드,컴퓨터,업무", "keyboard,computer,work"],
    ["추상 파티클", "Abstract particles", "추상,파티클,배경", "abstract,particles,background"],
  ],
  icon: [
    ["별", "Star", "별,즐겨찾기", "star,favorite"],
    ["하트", "Heart", "하트,좋아요", "heart,like"],
    ["화살표", "Arrow", "화살표,방향", "arrow,direction"],
    ["구름", "Cloud", "구름,날씨", "cloud,weather"],
    ["해", "Sun", "해,맑음", "sun,sunny"],
    ["달", "Moon", "달,밤", "moon,night"],
    ["음표", "Music note", "음표,음악", "music note,music"],
    ["카메라", "Camera", "카메라,사진", "camera,photo"],
    ["집", "Home", "집,홈", "home,house"],
    ["종", "Bell", "종,알림", "bell,notification"],
    ["말풍선", "Speech bubble", "말풍선,채팅", "speech bubble,chat"],
    ["체크", "Check mark", "체크,완료", "check,done"],
  ],
  audio: [
    ["피아노 선율", "Piano melody", "피아노,피아노곡,선율", "piano,melody"],
    ["배경음악", "Background music", "배경음악,음악", "background music,music"],
    ["여름 바캉스", "Summer vacation", "여름,휴가", "summer,vacation"],
    ["아침 산책", "Morning walk", "아침,산책", "morning,walk"],
    ["비 오는 날", "Rainy day", "비,감성", "rain,mood"],
    ["도시의 밤", "Night in the city", "도시,밤", "city,night"],
    ["우주 여행", "Space journey", "우주,여행", "space,journey"],
    ["카페 재즈", "Cafe jazz", "카페,재즈", "cafe,jazz"],
  ],
  package: [
    ["유튜브 시작 세트", "YouTube starter set", "유튜브,인트로", "youtube,intro"],
    ["웨딩 영상 세트", "Wedding film set", "웨딩,결혼", "wedding,marriage"],
    ["여행 브이로그 세트", "Travel vlog set", "여행,브이로그", "travel,vlog"],
    ["기업 홍보 세트", "Corporate promo set", "기업,홍보", "corporate,promotion"],
  ],
};

export const SOUND_EFFECTS: readonly (readonly [string, string, string, string])[] = [
  ["휙 지나가는 소리", "Whoosh", "휙,전환", "whoosh,transition"],
  ["알림 차임", "Notification chime", "알림,차임", "notification,chime"],
  ["상승 스윕", "Rising sweep", "스윕,상승", "sweep,rise"],
  ["박수 소리", "Applause", "박수,환호", "applause,cheer"],
  ["버튼 클릭", "Button click", "클릭,버튼", "click,button"],
  ["팝 효과음", "Pop", "팝,효과음", "pop,effect"],
];
