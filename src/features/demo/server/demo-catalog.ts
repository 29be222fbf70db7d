/**
 * The hand-written parts of the demo data set: an awards programme for digital marketing in
 * Malaysia and Indonesia. Every name is invented; any likeness to a real firm is accidental.
 * `demo-data.ts` combines these lists deterministically into records.
 */

/** The ten agencies and brand owners (companies) whose staff submit entries. */
export const DEMO_COMPANIES: ReadonlyArray<{ name: string; country: 'MY' | 'ID'; city: string; domain: string }> = [
  { name: 'Kancil Kreatif Sdn Bhd', country: 'MY', city: 'Kuala Lumpur', domain: 'kancilkreatif.com.my' },
  { name: 'Rimba Digital Sdn Bhd', country: 'MY', city: 'Petaling Jaya', domain: 'rimbadigital.com.my' },
  { name: 'Naga Media Group Sdn Bhd', country: 'MY', city: 'Penang', domain: 'nagamedia.com.my' },
  { name: 'Selat Communications Sdn Bhd', country: 'MY', city: 'Johor Bahru', domain: 'selatcomms.com.my' },
  { name: 'Langit Biru Advertising Sdn Bhd', country: 'MY', city: 'Kota Kinabalu', domain: 'langitbiru.com.my' },
  { name: 'PT Garuda Kreasi Nusantara', country: 'ID', city: 'Jakarta', domain: 'garudakreasi.co.id' },
  { name: 'PT Arunika Cipta Media', country: 'ID', city: 'Bandung', domain: 'arunikacipta.co.id' },
  { name: 'PT Rajawali Digital Indonesia', country: 'ID', city: 'Surabaya', domain: 'rajawalidigital.co.id' },
  { name: 'PT Samudra Komunika', country: 'ID', city: 'Yogyakarta', domain: 'samudrakomunika.co.id' },
  { name: 'PT Pelangi Ide Kreatif', country: 'ID', city: 'Denpasar', domain: 'pelangiide.co.id' },
];

/** Award categories (six; each has a Round 1 and a Round 2 examination). */
export const DEMO_CATEGORIES: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Best Use of Social',
    description: 'Campaigns where social platforms carried the idea: community building, creator collaborations and conversation that moved the business.',
  },
  {
    name: 'Best Use of Influencers',
    description: 'Work that partnered with creators and key opinion leaders credibly, with measurable reach, engagement and sales impact.',
  },
  {
    name: 'Best Integrated Campaign',
    description: 'One idea carried across paid, owned and earned channels, online and offline, with each touchpoint doing a distinct job.',
  },
  {
    name: 'Best Use of Data',
    description: 'Campaigns in which audience, first-party or real-time data shaped the insight, the targeting or the creative itself.',
  },
  {
    name: 'Best Purpose-Driven Campaign',
    description: 'Brand work that tackled a social or environmental issue in Malaysia or Indonesia and proved real change, not just awareness.',
  },
  {
    name: 'Best Use of Video',
    description: 'Short-form or long-form video, from TikTok series to YouTube films, judged on craft, storytelling and results.',
  },
];

/** Jurors: the first twelve grade Round 1, the last eight Round 2 (the spec's sample figures). */
export const DEMO_JURORS: ReadonlyArray<{ name: string; company: string; jobTitle: string; country: 'MY' | 'ID' }> = [
  { name: 'Nurul Aisyah Binti Rahman', company: 'Universiti Teknologi MARA', jobTitle: 'Senior Lecturer, Digital Media', country: 'MY' },
  { name: 'Tan Wei Ming', company: 'Kopi Kita Berhad', jobTitle: 'Head of Brand', country: 'MY' },
  { name: 'Arjun Nair', company: 'Persatuan Pengiklan Malaysia', jobTitle: 'Council Member', country: 'MY' },
  { name: 'Siti Hajar Ismail', company: 'Telco Satu Malaysia', jobTitle: 'Social Media Lead', country: 'MY' },
  { name: 'Lim Mei Ling', company: 'Independent', jobTitle: 'Creative Consultant', country: 'MY' },
  { name: 'Muhammad Faiz Hakimi', company: 'Bank Rakyat Digital', jobTitle: 'Performance Marketing Manager', country: 'MY' },
  { name: 'Dewi Lestari Putri', company: 'Universitas Padjadjaran', jobTitle: 'Dosen Komunikasi', country: 'ID' },
  { name: 'Budi Santoso', company: 'Kopi Nusantara Tbk', jobTitle: 'Marketing Director', country: 'ID' },
  { name: 'Rizky Pratama', company: 'Asosiasi Digital Kreatif Indonesia', jobTitle: 'Board Member', country: 'ID' },
  { name: 'Ayu Wulandari', company: 'Toko Serba Online', jobTitle: 'Head of Social Commerce', country: 'ID' },
  { name: 'Yohanes Hartono', company: 'Independent', jobTitle: 'Film Director', country: 'ID' },
  { name: 'Intan Permatasari', company: 'Bank Sentosa Digital', jobTitle: 'Brand Strategy Lead', country: 'ID' },
  { name: 'Datin Rohana Abdullah', company: 'Media Prima Group', jobTitle: 'Chief Marketing Officer', country: 'MY' },
  { name: 'Kevin Ong Jia Hao', company: 'Grab Malaysia Alumni Network', jobTitle: 'Growth Advisor', country: 'MY' },
  { name: 'Farah Nadia Zainal', company: 'Malaysian Digital Association', jobTitle: 'Vice President', country: 'MY' },
  { name: 'Ravi Shankar Pillai', company: 'Independent', jobTitle: 'Executive Creative Director', country: 'MY' },
  { name: 'Ratna Sari Dewi', company: 'Persatuan Perusahaan Periklanan Indonesia', jobTitle: 'Ketua Bidang Kreatif', country: 'ID' },
  { name: 'Andi Wijaya', company: 'Teknologi Maju Tbk', jobTitle: 'Chief Digital Officer', country: 'ID' },
  { name: 'Putu Ayu Maharani', company: 'Independent', jobTitle: 'Brand Strategist', country: 'ID' },
  { name: 'Hendra Gunawan', company: 'Universitas Indonesia', jobTitle: 'Guru Besar Pemasaran', country: 'ID' },
];

/** Submittors: the person at each agency who entered the work. */
export const DEMO_SUBMITTORS: ReadonlyArray<{ name: string; jobTitle: string; company: number }> = [
  { name: 'Ahmad Zulkifli', jobTitle: 'Account Director', company: 0 },
  { name: 'Chong Li Wen', jobTitle: 'Awards Coordinator', company: 0 },
  { name: 'Priya Menon', jobTitle: 'Strategy Director', company: 1 },
  { name: 'Hafiz Rosli', jobTitle: 'Head of Social', company: 2 },
  { name: 'Wong Kar Yee', jobTitle: 'Business Director', company: 3 },
  { name: 'Nor Azlina Kassim', jobTitle: 'Creative Director', company: 4 },
  { name: 'Dimas Anggara', jobTitle: 'Account Manager', company: 5 },
  { name: 'Sri Rahayu', jobTitle: 'Head of Strategy', company: 5 },
  { name: 'Fajar Nugroho', jobTitle: 'Digital Director', company: 6 },
  { name: 'Melati Kusuma', jobTitle: 'New Business Lead', company: 7 },
  { name: 'Agus Setiawan', jobTitle: 'Creative Group Head', company: 8 },
  { name: 'Kadek Surya Dharma', jobTitle: 'Managing Director', company: 9 },
];

/** A campaign with the texts its entries reuse (strategy, insight, idea, plan, KPIs). */
export interface DemoCampaign {
  name: string;
  brand: string;
  company: number;
  hashtags: string[];
  insight: string;
  strategy: string;
  idea: string;
  plan: string;
  kpi: string;
  confidentialKpi: string;
  partners: string;
}

export const DEMO_CAMPAIGNS: readonly DemoCampaign[] = [
  {
    name: 'Raya Balik Kampung',
    brand: 'Susu Lembah Segar',
    company: 0,
    hashtags: ['#RayaBalikKampung', '#SegarBersama'],
    insight: 'Young urban Malaysians miss Hari Raya at home because of work, and feel guilty that their parents cook for an empty table.',
    strategy: 'Make the brand the bridge between city children and kampung parents during the balik kampung season.',
    idea: 'A social series in which viewers nominate a parent; we deliver a Raya breakfast and stream a video call to the child at work.',
    plan: 'Teasers on TikTok and Instagram Reels, nominations through WhatsApp, live episodes on Facebook, recap on YouTube.',
    kpi: '12 million video views, 40,000 nominations and a 6% lift in Raya-season sales against last year.',
    confidentialKpi: 'Hold brand preference among 18-34 above 31% in Klang Valley tracking.',
    partners: 'Production: Studio Padi; creators: 14 Malaysian family creators',
  },
  {
    name: 'Mudik Aman 2025',
    brand: 'Motor Jaya',
    company: 5,
    hashtags: ['#MudikAman', '#JayaSampaiRumah'],
    insight: 'Motorbike riders going home for Lebaran ride through the night and underestimate fatigue, the biggest cause of mudik accidents.',
    strategy: 'Turn the brand from a motorbike seller into the guardian of the mudik journey.',
    idea: 'Rest-stop check-ins on Instagram: riders scan a QR code at partner petrol stations and unlock free coffee and a safety badge.',
    plan: 'Creator ride-alongs on TikTok, geo-targeted Stories along Java routes, partner petrol-station posters, radio reads.',
    kpi: '250,000 rest-stop check-ins, 30 million impressions, and zero reported incidents among registered riders.',
    confidentialKpi: 'Service-booking leads up 20% in the quarter after Lebaran.',
    partners: 'Petrol station network partners; Komunitas Bikers Jawa',
  },
  {
    name: 'Teh Tarik Untuk Semua',
    brand: 'Teh Emas',
    company: 1,
    hashtags: ['#TehTarikUntukSemua'],
    insight: 'Malaysians argue about everything online, but nobody argues about where to get a good teh tarik after a football match.',
    strategy: 'Own the post-match mamak moment as the shared ritual that unites fans of rival teams.',
    idea: 'A live map of mamak stalls where rival fans check in together after matches; every shared table unlocks a free round.',
    plan: 'Match-day posts on X and Instagram, stadium LED boards, mamak table-top QR stands, Spotify match-day playlists.',
    kpi: '1.2 million map visits, 85,000 check-ins and 15% growth in on-trade volume in the Super League season.',
    confidentialKpi: 'Out-of-home share above 42% in mamak outlets.',
    partners: 'Persatuan Pengusaha Restoran Muslim; fan clubs of six Super League teams',
  },
  {
    name: 'Sambal Nenek Challenge',
    brand: 'Dapur Rasa',
    company: 7,
    hashtags: ['#SambalNenek', '#DapurRasa'],
    insight: 'Every Indonesian family says their grandmother makes the best sambal, but the recipes are disappearing with that generation.',
    strategy: 'Make the brand the keeper of family recipes, not just a seller of chilli paste.',
    idea: 'A TikTok duet challenge in which grandchildren film their grandmother making sambal; the top 20 became a limited edition range.',
    plan: "Creator seeding, TikTok duet format, supermarket end-caps with the grandmothers' faces, e-commerce flash sales.",
    kpi: '18,000 entries, 95 million views and the limited range sold out in 11 days on two marketplaces.',
    confidentialKpi: 'Trial among households new to the brand at 27% of limited-range buyers.',
    partners: 'Two national supermarket chains; marketplace partners',
  },
  {
    name: 'Hutan Kita',
    brand: 'Air Murni',
    company: 8,
    hashtags: ['#HutanKita', '#SatuBotolSatuPohon'],
    insight: 'Consumers want to act on deforestation but distrust brands that only post about it.',
    strategy: 'Replace claims with proof: every bottle becomes a verifiable tree.',
    idea: "Each bottle cap carries a code that plants a tree in Kalimantan; buyers follow their tree's growth through satellite images on Instagram.",
    plan: 'Pack codes, an Instagram AR filter, monthly satellite updates by email, school partnerships in Kalimantan.',
    kpi: '1 million trees planted, 2.3 million codes redeemed and 9 points gain in brand trust.',
    confidentialKpi: 'Price premium held at 12% over the category average without promotions.',
    partners: 'Yayasan Hutan Lestari; satellite imagery partner',
  },
  {
    name: 'Gaji Pertama',
    brand: 'Bank Sentosa',
    company: 2,
    hashtags: ['#GajiPertama'],
    insight: 'Fresh graduates feel adult for the first time on payday, and make money decisions they regret by the end of the month.',
    strategy: 'Meet first jobbers at the exact moment of their first salary with help, not a product pitch.',
    idea: 'A first-payday chatbot that splits the salary into spend, save and send-home pots, with creator stories about their first pay.',
    plan: 'LinkedIn and Instagram targeting of new graduates, campus career fairs, creator Q&As on YouTube.',
    kpi: '64,000 chatbot users, 21,000 new savings accounts and 4.1 million minutes of video watched.',
    confidentialKpi: 'Cost per account below RM38.',
    partners: 'Career fair organisers at five public universities',
  },
  {
    name: 'Pasar Malam Online',
    brand: 'Belanja Cepat',
    company: 3,
    hashtags: ['#PasarMalamOnline'],
    insight: 'Small night-market traders lost their evening crowds and had no idea how to sell online.',
    strategy: 'Bring the energy of the pasar malam to live commerce, with the traders as the stars.',
    idea: 'Nightly live-stream shows hosted by traders, coached by creators, with the app paying delivery for the first month.',
    plan: 'Live streams on the app and Facebook, trader coaching workshops, radio and community WhatsApp groups.',
    kpi: '3,200 traders onboarded, 410,000 orders and 70% of traders still selling after three months.',
    confidentialKpi: 'Gross merchandise value above RM6 million in the campaign period.',
    partners: 'Persatuan Penjaja Malaysia; 25 food creators',
  },
  {
    name: 'Batik Digital',
    brand: 'Kain Nusa',
    company: 6,
    hashtags: ['#BatikDigital', '#KainNusa'],
    insight: "Young Indonesians love batik on National Batik Day but see it as their parents' clothing the rest of the year.",
    strategy: 'Let young people design their own batik, making heritage personal and wearable.',
    idea: "A web tool that turns a selfie's colours into a batik motif, produced by artisans in Pekalongan and shared as an AR try-on.",
    plan: 'Instagram AR filter, web tool, artisan stories on YouTube, pop-up stores in Jakarta and Bandung malls.',
    kpi: '520,000 motifs created, 38,000 garments ordered and 3.5 million AR try-ons.',
    confidentialKpi: 'Artisan income up 30% for participating workshops.',
    partners: 'Pekalongan batik cooperatives',
  },
  {
    name: 'Kongsi Rezeki',
    brand: 'Telco Satu',
    company: 4,
    hashtags: ['#KongsiRezeki'],
    insight: 'In East Malaysia, families share one phone plan across generations, but the plans are built for individuals.',
    strategy: 'Celebrate the way Sabahan and Sarawakian families really share.',
    idea: 'A family data pool launched with a film about a longhouse sharing signal, and a social campaign collecting sharing stories.',
    plan: 'A three-minute film on YouTube and Facebook, radio in local languages, roadshows in Kota Kinabalu and Kuching.',
    kpi: '9 million film views, 48,000 family plans activated and 22% share gain in East Malaysia.',
    confidentialKpi: 'Churn among family plan users below 1.1% monthly.',
    partners: 'Local radio stations in Sabah and Sarawak',
  },
  {
    name: 'Jalan Sehat Bersama',
    brand: 'Sehat Selalu',
    company: 9,
    hashtags: ['#JalanSehatBersama'],
    insight: 'Indonesians join fun walks for the prizes, not the health benefits, and stop exercising the week after.',
    strategy: 'Keep the fun walk going beyond the day, with a community that rewards habits rather than attendance.',
    idea: 'A 30-day step challenge linking neighbourhood teams on Instagram and WhatsApp, ending in a Bali walk with the top teams.',
    plan: 'Community leaders as ambassadors, WhatsApp leaderboards, Instagram Stories, local TV news features.',
    kpi: '140,000 participants, an average of 7,400 steps a day, and 60% still active in the fourth week.',
    confidentialKpi: 'Product trial among participants at 35%.',
    partners: 'Neighbourhood associations in Bali and Java',
  },
];
